import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { QUEUED_NOTE } from '../src/web/components/ui/LiveForm.tsx';
import { PLAYER_PASSWORD, playerPhone } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORTS, type ViewportName } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

/**
 * A prerendered form pressed before the app's script has arrived (a busy phone, a slow line):
 * the press is held, the form says so at once, and it is sent with what was typed as soon as
 * the app has taken the page over (components/ui/LiveForm.tsx). The script is held back by a
 * route handler until the test lets it through, so "before" is certain, not a race.
 */
const e2e = e2eSuite({ mail: true });

const ARTIFACTS = 'e2e/artifacts/';

/**
 * Opens `path` with every script of the app held back until `release()`; resolves once the
 * prerendered page shows. `requested()` tells whether any script has been asked for (so the
 * test knows the hold, not a quick page, is what it sees).
 */
async function openWithScriptHeld(path: string, viewport: ViewportName) {
  // A page without the app's scripts, so the route is in place before the real page loads.
  const page = await e2e.open('/favicon.svg', { viewport });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let scriptsAsked = 0;
  await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
    scriptsAsked += 1;
    await released;
    await route.continue();
  });
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) apiCalls.push(request.url());
  });
  // Not until 'load': the held script, once the boot script has added it, holds that back too.
  await page.goto(`${e2e.server.url}${path}`, { waitUntil: 'domcontentloaded' });
  await page.locator('h1').first().waitFor({ state: 'visible' });
  return { page, release, requested: () => scriptsAsked > 0, apiCalls };
}

async function shot(page: Page, name: string, viewport: ViewportName): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({
    path: `${ARTIFACTS}before-hydration-${name}-${VIEWPORTS[viewport].width}.png`,
    fullPage: true,
  });
}

/** The form's note that the press is held: shown, and the form not yet React's. */
async function expectHeld(page: Page) {
  await page.getByRole('status').filter({ hasText: QUEUED_NOTE }).waitFor({ state: 'visible' });
  expect(await page.locator('form[data-live]').count()).toBe(0);
}

describe('a form pressed before the app has loaded', () => {
  it.each(['mobile', 'desktop'] as const)(
    'Sign up (%s): typed and pressed before the script arrives, sent once it has',
    async (viewport) => {
      const { page, release, requested, apiCalls } = await openWithScriptHeld('/Signup', viewport);
      const handle = `early${Date.now().toString(36).slice(-6)}${viewport[0]}`;
      const email = `${handle}@example.test`;
      await page.getByLabel('Full name').fill('Ada Lovelace');
      await page.getByLabel('Username').fill(handle);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Phone number').fill(playerPhone());
      await page.getByLabel('Password', { exact: true }).fill(PLAYER_PASSWORD);
      await page.getByLabel('Re-enter password').fill(PLAYER_PASSWORD);
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Sign up' }).click();

      await expectHeld(page);
      expect(requested()).toBe(true);
      expect(page.url()).toBe(`${e2e.server.url}/Signup`);
      expect(apiCalls).toEqual([]);
      await expectNoSeriousA11yViolations(page, `/Signup held at ${viewport}`);
      await shot(page, 'signup', viewport);

      release();
      await page.waitForURL((url) => url.pathname === '/login');
      await page
        .getByText('Account created. Check your e-mail for a link or code to verify it.')
        .waitFor();
      await page.getByRole('heading', { level: 1, name: 'Welcome back, Plucker' }).waitFor();
      expect(await page.getByLabel('Email').inputValue()).toBe(email);
      const mail = await e2e.mail.waitForMail(email);
      expect(mail.validateToken).toBeTruthy();
    },
  );

  it('Log in (desktop): typed and pressed before the script arrives, signs in once it has', async () => {
    const player = await e2e.registerPlayer('early');
    const { page, release } = await openWithScriptHeld('/login', 'desktop');
    await page.getByLabel('Email').fill(player.email);
    await page.getByLabel('Password').fill(PLAYER_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();

    await expectHeld(page);
    await expectNoSeriousA11yViolations(page, '/login held at 1280 px');
    await shot(page, 'login', 'desktop');

    release();
    await page.getByRole('heading', { name: 'FEED YOUR WALLET' }).waitFor({ state: 'visible' });
    expect(await page.evaluate(() => localStorage.getItem('authToken'))).toBeTruthy();
  });

  it('Log in (mobile): pressed empty before the script arrives, says what is missing once it has', async () => {
    const { page, release, apiCalls } = await openWithScriptHeld('/login', 'mobile');
    await page.getByRole('button', { name: 'Log in' }).click();

    await expectHeld(page);
    await shot(page, 'login-empty', 'mobile');

    release();
    await page.getByText('Enter your email address').waitFor();
    await page.getByText('Enter your password').waitFor();
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await page.locator('form[data-live]').waitFor({ state: 'attached' });
    expect(await page.getByText(QUEUED_NOTE).isVisible()).toBe(false);
    expect(apiCalls.filter((url) => url.includes('/auth/'))).toEqual([]);
  });
});
