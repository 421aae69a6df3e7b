import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

type Result = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** The minified build: less than half the script for the page to parse at each injection. */
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

function describe(violation: Result): string {
  const nodes = violation.nodes
    .slice(0, 5)
    .map((node) => {
      const target = node.target.map(String).join(' ');
      const summary = (node.failureSummary ?? '').replace(/\s+/g, ' ').trim();
      return `    - ${target}\n      ${summary}`;
    })
    .join('\n');
  const more = violation.nodes.length > 5 ? `\n    … and ${violation.nodes.length - 5} more` : '';
  return `  [${violation.impact}] ${violation.id}: ${violation.help}\n    ${violation.helpUrl}\n${nodes}${more}`;
}

/**
 * Scans the page with axe-core; fails listing every serious or critical violation.
 *
 * Legacy mode runs one `axe.run` in the page, with axe in every frame so same-origin frames are
 * scanned too (the app has none from other origins). The default mode merges its results in a
 * blank page it opens for each scan: a new renderer per scan, for the same rules on the same page.
 */
export async function expectNoSeriousA11yViolations(page: Page, label = page.url()): Promise<void> {
  // Only violations are read, so axe skips building the (large) lists of passes.
  const results = await new AxeBuilder({ page, axeSource: AXE_SOURCE })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze();
  const blocking = results.violations.filter((violation) =>
    BLOCKING_IMPACTS.has(violation.impact ?? ''),
  );
  if (blocking.length > 0) {
    throw new Error(
      `axe found ${blocking.length} serious/critical violation(s) on ${label}:\n${blocking
        .map(describe)
        .join('\n')}`,
    );
  }
}
