import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

type Result = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

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

/** Scans the page with axe-core; fails listing every serious or critical violation. */
export async function expectNoSeriousA11yViolations(page: Page, label = page.url()): Promise<void> {
  // Only violations are read, so axe skips building the (large) lists of passes.
  const results = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
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
