/**
 * Screenshots for a visual review and for the README, outside the test run:
 *
 *   npx tsx e2e/support/screenshots.ts
 *
 * Starts the real server like the browser tests do, then writes every visitor screen at both
 * widths to e2e/artifacts/<name>-<width>.png (gitignored), long pages also cut into
 * screen-sized parts (<name>-<width>-<n>.png) that are easier to look at, and the 1280 px /login
 * to docs/screenshot-login.png.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildServerForRun } from '../../scripts/build-server.ts';
import {
  launchChromium,
  PageTracker,
  VIEWPORT_NAMES,
  VIEWPORTS,
  waitForScreen,
} from './browser.ts';
import { ensureWebBuild, findChromium } from './prepare.ts';
import { VISITOR_SCREENS } from './screens.ts';
import { startServer } from './server.ts';

const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const README_SHOT = fileURLToPath(new URL('../../docs/screenshot-login.png', import.meta.url));

await ensureWebBuild();
const build = await buildServerForRun();
const [server, browser] = await Promise.all([
  startServer({ serverMain: build.main }),
  launchChromium(findChromium()),
]);
const pages = new PageTracker(() => browser);
try {
  await mkdir(ARTIFACTS, { recursive: true });
  for (const viewport of VIEWPORT_NAMES) {
    for (const screen of VISITOR_SCREENS) {
      const page = await pages.newPage({ viewport });
      await page.goto(`${server.url}${screen.path}`);
      await waitForScreen(page);
      const file = `${ARTIFACTS}${screen.name}-${VIEWPORTS[viewport].width}.png`;
      await page.screenshot({ path: file, fullPage: true });
      console.info(`wrote ${file}`);
      const { width, height } = VIEWPORTS[viewport];
      const tile = Math.round(height * 1.4);
      const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let part = 0; pageHeight > tile && part * tile < pageHeight; part += 1) {
        const y = part * tile;
        await page.screenshot({
          path: `${ARTIFACTS}${screen.name}-${width}-${part + 1}.png`,
          fullPage: true,
          clip: { x: 0, y, width, height: Math.min(tile, pageHeight - y) },
        });
      }
      if (viewport === 'desktop' && screen.name === 'login') {
        await mkdir(new URL('../../docs/', import.meta.url), { recursive: true });
        await page.screenshot({ path: README_SHOT });
        console.info(`wrote ${README_SHOT}`);
      }
    }
    await pages.closeAll();
  }
} finally {
  await Promise.all([browser.close(), server.stop()]);
  await build.remove();
}
