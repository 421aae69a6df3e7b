/**
 * What players on bad connections trip over, reproduced in Debian Chromium at a phone and a
 * laptop width before it was fixed. Service workers are blocked here, as on a first visit
 * before the worker controls the page and whenever Data saver is on.
 */
import { mkdir } from 'node:fs/promises';
import type { Page, Route } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_PASSWORD, type Player, playerPhone } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, type ViewportName, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

const e2e = e2eSuite({ mail: true });

let player: Player | undefined;
beforeAll(async () => {
  player = await e2e.registerPlayer('patchy');
});

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the set-up did not make ${what}`);
  return value;
}

/** A screenshot to look at: e2e/artifacts/bad-connections-<name>.png (gitignored). */
async function shot(page: Page, name: string): Promise<void> {
  await mkdir('e2e/artifacts', { recursive: true });
  await page.screenshot({ path: `e2e/artifacts/bad-connections-${name}.png` });
}

/** Follows a link of the main navigation, from the menu on a phone. */
async function navigate(page: Page, viewport: ViewportName, label: string): Promise<void> {
  if (viewport === 'mobile') {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page
      .getByRole('navigation', { name: 'Mobile' })
      .getByRole('link', { name: label })
      .click();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click();
  }
}

/**
 * Opens Home signed in with `chunk` (a screen's code file) answered by `answer` from the start,
 * so that neither the first load nor the idle preload gets it.
 */
async function openHomeWithout(
  viewport: ViewportName,
  chunk: RegExp,
  answer: (route: Route) => Promise<void>,
): Promise<Page> {
  const page = await e2e.open('/favicon.svg', {
    authToken: need(player, 'a player').token,
    viewport,
    allowConsoleErrors: [/ERR_INTERNET_DISCONNECTED|Failed to load resource/],
  });
  await page.route(chunk, answer);
  await page.goto(`${e2e.server.url}/Home`);
  await waitForScreen(page);
  // The player's balance comes with the session: the app has taken over the prerendered Home.
  await page.getByRole('link', { name: /^Balance / }).waitFor({ state: 'attached' });
  return page;
}

describe.each(VIEWPORT_NAMES)(
  'a screen opened on a dropped connection, at %s width',
  (viewport) => {
    it('shows the offline screen inside the layout with Retry and opens by itself once back online', async () => {
      let connected = false;
      const page = await openHomeWithout(
        viewport,
        /\/assets\/LeaderboardPage-[^/]*\.js$/,
        async (route) => {
          if (connected) await route.continue();
          else await route.abort('internetdisconnected');
        },
      );
      await page.context().setOffline(true);
      await navigate(page, viewport, 'Leaderboard');
      await page.waitForURL((url) => url.pathname === '/Leaderboard');

      const offline = page.getByText("You're offline", { exact: true });
      await offline.waitFor({ timeout: 5_000 });
      await page.getByText("This screen loads by itself when you're back online.").waitFor();
      // The navigation stays: the player can go elsewhere.
      await page.getByRole('link', { name: 'Pluckers home' }).first().waitFor();
      await page.getByRole('button', { name: 'Retry' }).click();
      await page.getByText('Still offline.', { exact: false }).waitFor();
      await shot(page, `offline-screen-${viewport}`);
      await expectNoSeriousA11yViolations(page, `offline screen ${viewport}`);

      connected = true;
      await page.context().setOffline(false);
      await page.getByRole('heading', { name: 'Leaderboard', level: 1 }).waitFor();
      expect(await offline.count()).toBe(0);
    });

    it('reloads once to the new build when the screen’s file is gone after a deploy', async () => {
      let gone = true;
      const page = await openHomeWithout(
        viewport,
        /\/assets\/MySubmissionsPage-[^/]*\.js$/,
        async (route) => {
          if (gone) await route.fulfill({ status: 404, body: 'Not found' });
          else await route.continue();
        },
      );
      await page.evaluate(() => {
        (window as Window & { beforeDeploy?: boolean }).beforeDeploy = true;
      });
      // The reload fetches the page anew: from then on the build has the file again.
      page.on('request', (request) => {
        if (request.isNavigationRequest()) gone = false;
      });
      await navigate(page, viewport, 'My submissions');
      await page.getByRole('heading', { name: 'My Submissions', level: 1 }).waitFor();
      expect(
        await page.evaluate(() => (window as Window & { beforeDeploy?: boolean }).beforeDeploy),
      ).toBeUndefined();
      expect(new URL(page.url()).pathname).toBe('/MySubmissions');
      await shot(page, `after-deploy-${viewport}`);
    });
  },
);

describe('the other screens’ code, while Home is idle', () => {
  it('is downloaded without running it, and a screen opens from it once the connection drops', async () => {
    const page = await e2e.open('/favicon.svg', {
      authToken: need(player, 'a player').token,
      viewport: 'mobile',
      allowConsoleErrors: [/ERR_INTERNET_DISCONNECTED|Failed to load resource/],
    });
    // Requests of the page and of its workers, by path, with what asked for them.
    const requested = new Map<string, string[]>();
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      requested.set(path, [...(requested.get(path) ?? []), request.resourceType()]);
    });
    await page.goto(`${e2e.server.url}/Home`);
    await waitForScreen(page);
    await page.getByRole('link', { name: /^Balance / }).waitFor({ state: 'attached' });

    const files = await page.evaluate(
      async () => (await (await fetch('/player-files.json')).json()) as string[],
    );
    expect(files).toContainEqual(expect.stringMatching(/^\/assets\/LeaderboardPage-.*\.js$/));
    expect(files.filter((file) => /AdminApp/.test(file))).toEqual([]);
    await expect
      .poll(() => files.filter((file) => !requested.has(file)), { timeout: 30_000 })
      .toEqual([]);
    // Downloaded as files, not imported: no screen's module (nor the schemas it parses with)
    // runs on Home's main thread before the player opens it.
    const leaderboard = files.find((file) => /\/LeaderboardPage-/.test(file)) ?? '';
    expect(requested.get(leaderboard)).toEqual(['fetch']);
    expect(await page.locator('link[rel="modulepreload"][href*="LeaderboardPage-"]').count()).toBe(
      0,
    );

    await page.context().setOffline(true);
    await navigate(page, 'mobile', 'Leaderboard');
    await page.getByRole('heading', { name: 'Leaderboard', level: 1 }).waitFor();
    // The screen is there; only its list waits for the connection.
    expect(
      await page.getByText("This screen loads by itself when you're back online.").count(),
    ).toBe(0);
    await shot(page, 'screen-from-downloaded-code');
  });
});

describe.each(VIEWPORT_NAMES)(
  'verifying the e-mail just after signing up, at %s width',
  (viewport) => {
    it('Resend waits out the minute from the sign-up e-mail instead of claiming a new link', async () => {
      const handle = `fresh_${Date.now().toString(36).slice(-6)}${viewport[0]}`;
      const email = `${handle}@players.test`;
      const page = await e2e.open('/Signup', { viewport, allowConsoleErrors: [/403/] });
      await page.getByRole('heading', { level: 1, name: 'Create your account' }).waitFor();
      await page.getByLabel('Full name').fill('Fresh Signup');
      await page.getByLabel('Username').fill(handle);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Phone number').fill(playerPhone());
      await page.getByLabel('Password', { exact: true }).fill(PLAYER_PASSWORD);
      await page.getByLabel('Re-enter password').fill(PLAYER_PASSWORD);
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByRole('heading', { level: 1, name: 'Welcome back, Plucker' }).waitFor();
      await page.getByLabel('Password', { exact: true }).fill(PLAYER_PASSWORD);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/verifyemail');
      await waitForScreen(page);

      // The sign-up's e-mail went out seconds ago: no new link can go yet, and the page says so.
      const resend = page.getByRole('button', { name: 'Resend Verification Link' });
      const wait = page.getByText(/You can ask for another link in 0:[0-5]\d\./);
      await wait.waitFor();
      expect(await resend.isDisabled()).toBe(true);
      expect(await resend.getAttribute('aria-describedby')).toBe(await wait.getAttribute('id'));
      expect(await page.getByText('we have sent a new link', { exact: false }).count()).toBe(0);
      await shot(page, `resend-after-signup-${viewport}`);
      await expectNoSeriousA11yViolations(page, `verify e-mail after sign-up ${viewport}`);
    });
  },
);
