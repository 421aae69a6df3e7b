/**
 * What a first-time player trips over (issue 20), each reproduced in Debian Chromium at a phone
 * and a laptop width before it was fixed.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../src/server/test/smtp.ts';
import { OPERATOR_ENV, type Player, registerPlayer } from './support/accounts.ts';
import { VIEWPORT_NAMES, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

let smtp: TestSmtpServer | undefined;
const e2e = e2eSuite({
  env: async () => {
    smtp = await startSmtpServer();
    return { ...OPERATOR_ENV, SMTP_URL: smtp.url, JOB_POLL_MS: '250' };
  },
});
afterAll(async () => {
  await smtp?.close();
});

let player: Player | undefined;
beforeAll(async () => {
  if (!smtp) throw new Error('the SMTP server is not running');
  player = await registerPlayer(e2e.server.url, smtp, 'newbie');
});

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the set-up did not make ${what}`);
  return value;
}

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

async function scrollToBottom(page: Page): Promise<number> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  // Scrolling settles in the next frame.
  await page.waitForFunction(() => window.scrollY > 0);
  return scrollY(page);
}

describe.each(VIEWPORT_NAMES)('scroll position at %s width', (viewport) => {
  it('a new screen opens at the top and Back returns to where the player was', async () => {
    const page = await e2e.open('/Home', { authToken: need(player, 'a player').token, viewport });
    await waitForScreen(page);
    await page.getByRole('article').first().waitFor();
    const homeScroll = await scrollToBottom(page);
    expect(homeScroll).toBeGreaterThan(300);

    await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link', { name: 'Top up' })
      .click();
    await page.waitForURL((url) => url.pathname === '/TopUp');
    await waitForScreen(page);
    expect(await scrollY(page)).toBe(0);

    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/Home');
    await page.getByRole('article').first().waitFor();
    // Within a few pixels: cards far off screen are laid out at an estimated height
    // (content-visibility) until they come near, so the page can be a little shorter.
    await expect.poll(async () => Math.abs((await scrollY(page)) - homeScroll)).toBeLessThan(80);

    // The same from a scrolled Top up page to Pricing, through the footer.
    await page.goForward();
    await page.waitForURL((url) => url.pathname === '/TopUp');
    await expect.poll(() => scrollY(page)).toBe(0);
    await scrollToBottom(page);
    await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link', { name: 'Pricing' })
      .click();
    await page.waitForURL((url) => url.pathname === '/Pricing');
    await waitForScreen(page);
    expect(await scrollY(page)).toBe(0);
  });
});
