import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, VIEWPORTS, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';
import { VISITOR_SCREENS } from './support/screens.ts';

const e2e = e2eSuite({ shared: true });
/** Screenshots of every scanned screen, for review (gitignored). */
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

describe.each(VIEWPORT_NAMES)('at %s width', (viewport) => {
  const { width } = VIEWPORTS[viewport];

  it.each(VISITOR_SCREENS)(
    '$path: no serious or critical axe violations, no sideways scrolling',
    async ({ name, path }) => {
      const page = await e2e.open(path, { viewport });
      await waitForScreen(page);
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}${name}-${width}.png`, fullPage: true });

      await expectNoSeriousA11yViolations(page, `${path} at ${width} px`);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
    },
  );
});
