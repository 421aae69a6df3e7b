import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { uniqueSuffix } from '../../test/factories.ts';
import {
  assertNotThrottled,
  clearFailures,
  delayAfter,
  recordFailure,
  remainingBlockMs,
  sweepThrottles,
  type ThrottlePolicy,
} from './throttle.ts';

const database = testDatabasePerFile();
const policy: ThrottlePolicy = {
  freeFailures: 3,
  windowMs: 15 * 60_000,
  firstDelayMs: 1_000,
  maxDelayMs: 60_000,
};
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);

describe('auth throttle', () => {
  it('lets the free failures through, then doubles the wait up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 10, 50].map((n) => delayAfter(n, policy))).toEqual([
      0, 0, 0, 1_000, 2_000, 4_000, 60_000, 60_000,
    ]);
    expect(Number.isFinite(delayAfter(Number.MAX_SAFE_INTEGER, policy))).toBe(true);
  });

  it('blocks a key after its free failures, with a 429 that says how long', async () => {
    const db = database().db;
    const key = `test:${uniqueSuffix()}`;
    for (let i = 0; i < 3; i += 1) await recordFailure(db, key, policy, at(0));
    await expect(assertNotThrottled(db, [key], at(0))).resolves.toBeUndefined();
    expect(await recordFailure(db, key, policy, at(0))).toBe(4);
    const refusal = await assertNotThrottled(db, [key], at(100)).catch((error) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({
      statusCode: 429,
      code: 'TOO_MANY_REQUESTS',
      retryAfterSeconds: 1,
    });
    expect(refusal.message).toBe('Too many attempts. Please try again in 1 second.');
    // The block ends on its own.
    await expect(assertNotThrottled(db, [key], at(1_000))).resolves.toBeUndefined();
  });

  it('counts concurrent failures of one key exactly', async () => {
    const db = database().db;
    const key = `test:${uniqueSuffix()}`;
    await Promise.all(Array.from({ length: 20 }, () => recordFailure(db, key, policy, at(0))));
    expect(await recordFailure(db, key, policy, at(0))).toBe(21);
    expect(await remainingBlockMs(db, [key], at(0))).toBe(60_000);
  });

  it('starts a new window once the old one is over, and a success clears the count', async () => {
    const db = database().db;
    const key = `test:${uniqueSuffix()}`;
    for (let i = 0; i < 3; i += 1) await recordFailure(db, key, policy, at(0));
    expect(await recordFailure(db, key, policy, at(policy.windowMs))).toBe(1);
    await recordFailure(db, key, policy, at(policy.windowMs));
    await clearFailures(db, [key]);
    expect(await recordFailure(db, key, policy, at(policy.windowMs))).toBe(1);
  });

  it('sweeps counters whose window and block are over, and only those', async () => {
    const db = database().db;
    const [old, blocked, live] = [1, 2, 3].map((n) => `test:${uniqueSuffix()}:${n}`);
    await recordFailure(db, old as string, policy, at(0));
    for (let i = 0; i < 10; i += 1) await recordFailure(db, blocked as string, policy, at(0));
    // The last failure, just before its window ends, blocks the key past the window.
    await recordFailure(db, blocked as string, policy, at(policy.windowMs - 10));
    await recordFailure(db, live as string, policy, at(policy.windowMs));
    await sweepThrottles(db, at(policy.windowMs + 1));
    expect(await recordFailure(db, old as string, policy, at(policy.windowMs + 2))).toBe(1);
    expect(
      await remainingBlockMs(db, [blocked as string], at(policy.windowMs + 1)),
    ).toBeGreaterThan(0);
    expect(await recordFailure(db, live as string, policy, at(policy.windowMs + 2))).toBe(2);
  });
});
