import { afterEach, beforeEach, vi } from 'vitest';

/**
 * An unexpected console.error fails the test that caused it. A test that expects one spies on
 * console.error itself (vi.spyOn(console, 'error').mockImplementation(...)) before it happens.
 */
let calls: unknown[][] = [];
const original = console.error;

beforeEach(() => {
  calls = [];
  console.error = (...args: unknown[]) => {
    calls.push(args);
    original(...args);
  };
});

afterEach(() => {
  const unexpected = calls;
  calls = [];
  console.error = original;
  vi.restoreAllMocks();
  if (unexpected.length > 0) {
    throw new Error(
      `console.error was called ${unexpected.length} time(s):\n${unexpected
        .map((args) => args.map(String).join(' '))
        .join('\n')}`,
    );
  }
});
