/**
 * The installable app in Debian Chromium with its service worker running: it
 * installs, Home opens offline from the saved copy and says so, a page that needs the network
 * offers Retry, a new version is announced, and installing is offered after the first answer.
 * This file serves its own copy of the build, since one test publishes a "new version" of it.
 */
import { appendFile, cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, OPERATOR_ENV, operatorToken, type Player } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, type ViewportName, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

let webCopy: string | undefined;
const e2e = e2eSuite({
  mail: true,
  env: async () => {
    webCopy = await mkdtemp(path.join(tmpdir(), 'pluckers-e2e-pwa-'));
    await cp(inject('webDist'), webCopy, { recursive: true });
    return { ...OPERATOR_ENV, WEB_DIST: webCopy };
  },
});
afterAll(async () => {
  if (webCopy) await rm(webCopy, { recursive: true, force: true });
});

const OFFLINE_ERRORS = [/ERR_INTERNET_DISCONNECTED|Failed to load resource|Failed to fetch/];

let player: Player | undefined;
let admin: string | undefined;
beforeAll(async () => {
  [player, admin] = await Promise.all([
    e2e.registerPlayer('installer'),
    operatorToken(e2e.server.url),
  ]);
});

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the set-up did not make ${what}`);
  return value;
}

let games = 0;
async function createGame(): Promise<{ id: string; title: string }> {
  games += 1;
  const title = `Installable game ${games} ${Date.now().toString(36)}`;
  const created = await api<{ data: { id: string } }>(e2e.server.url, 'POST', '/admin/games', {
    token: admin,
    body: { title, reward: 500, maximumPlayers: 20, entryFee: 0 },
  });
  return { id: created.data.id, title };
}

/** A screenshot to look at: e2e/artifacts/installable-app-<name>.png (gitignored). */
async function shot(page: Page, name: string): Promise<void> {
  await mkdir('e2e/artifacts', { recursive: true });
  await page.screenshot({ path: `e2e/artifacts/installable-app-${name}.png` });
}

/** Waits until the worker is active and controls the page (a reload is its first control). */
async function controlledBy(page: Page): Promise<string> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
    await page.reload();
  }
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');
}

/** Opens `path` signed in as the player, with the service worker allowed to run. */
function openAsPlayer(urlPath: string, viewport: ViewportName = 'mobile', offline = false) {
  return e2e.open(urlPath, {
    authToken: need(player, 'a player').token,
    viewport,
    serviceWorkers: true,
    ...(offline ? { allowConsoleErrors: OFFLINE_ERRORS } : {}),
  });
}

describe('the service worker and the manifest', () => {
  it('installs, takes over the page, and the manifest names icons, colours and shortcuts', async () => {
    const page = await e2e.open('/login', { serviceWorkers: true });
    await waitForScreen(page);
    expect(await controlledBy(page)).toBe(`${e2e.server.url}/sw.js`);

    // Never cached for long: a new version must reach players at their next visit.
    const worker = await fetch(`${e2e.server.url}/sw.js`);
    expect(worker.headers.get('cache-control')).toBe('no-cache');
    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await fetch(`${e2e.server.url}${manifestHref}`)).json()) as {
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; purpose: string }[];
      shortcuts: { name: string; url: string }[];
    };
    expect(manifest.display).toBe('standalone');
    expect(manifest.theme_color).toBe('#0b0b0b');
    const sizes = manifest.icons.filter((icon) => icon.purpose === 'any').map((i) => i.sizes);
    for (const size of [48, 72, 96, 128, 144, 152, 192, 256, 384, 512]) {
      expect(sizes).toContain(`${size}x${size}`);
    }
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const response = await fetch(`${e2e.server.url}${icon.src}`);
      expect(response.headers.get('content-type')).toBe('image/png');
    }
    // Chromium's own installability checks (what Lighthouse's PWA audit used to report).
    const cdp = await page.context().newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    // Playwright's contexts are incognito, where Chromium never installs; nothing else may fail.
    expect(
      installabilityErrors.map((error) => error.errorId).filter((id) => id !== 'in-incognito'),
    ).toEqual([]);
    expect(manifest.shortcuts.map((shortcut) => shortcut.name)).toEqual([
      'Home',
      'Wallet',
      'My submissions',
    ]);
  });
});

describe.each(VIEWPORT_NAMES)('offline, at %s width', (viewport) => {
  it('Home opens from the saved copy and says since when; Retry online brings it live', async () => {
    const game = await createGame();
    const page = await openAsPlayer('/Home', viewport, true);
    await controlledBy(page);
    await waitForScreen(page);
    await page.getByText(game.title).first().waitFor();

    await page.context().setOffline(true);
    await page.reload();
    await waitForScreen(page);
    await page.getByText(game.title).first().waitFor();
    const notice = page.getByRole('status').filter({ hasText: 'Offline, last updated' });
    await notice.waitFor();
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await shot(page, `offline-home-${viewport}`);
    await expectNoSeriousA11yViolations(page, `Home offline at ${viewport}`);

    // Retry offline says so; back online, the live figures replace the saved ones by themselves.
    await notice.getByRole('button', { name: 'Retry' }).click();
    await notice.getByText('Still offline.', { exact: false }).waitFor();
    await page.context().setOffline(false);
    await notice.waitFor({ state: 'detached' });
  });

  it('a page that needs the network says it is offline, with Retry that loads it once back', async () => {
    const page = await openAsPlayer('/Home', viewport, true);
    await controlledBy(page);
    await waitForScreen(page);
    // Home's heading is in the prerendered HTML: wait for the session's reads (the balance shows
    // once /user and /settings are back), which the worker keeps for offline use.
    await page.getByRole('link', { name: /^Balance ₦/ }).waitFor();

    await page.context().setOffline(true);
    await page.goto(`${e2e.server.url}/ResponsiblePlay`);
    const offline = page.getByText("You're offline", { exact: true });
    await offline.waitFor();
    await page.getByRole('button', { name: 'Retry' }).first().click();
    await page.getByText('Still offline.', { exact: false }).first().waitFor();
    await shot(page, `offline-screen-${viewport}`);
    await expectNoSeriousA11yViolations(page, `offline screen at ${viewport}`);

    // Back online, what was waiting loads by itself.
    await page.context().setOffline(false);
    await offline.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Responsible play' }).waitFor();
  });
});

/** Hands the page an install offer as Chromium would (the real one needs user engagement). */
async function offerInstall(page: Page): Promise<void> {
  await page.evaluate(() => {
    const offer = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
      prompt?: () => Promise<void>;
      userChoice?: Promise<{ outcome: string }>;
    };
    offer.prompt = async () => {
      (window as unknown as { prompted: boolean }).prompted = true;
    };
    offer.userChoice = Promise.resolve({ outcome: 'accepted' });
    window.dispatchEvent(offer);
  });
}

describe.each(VIEWPORT_NAMES)('the install prompt, at %s width', (viewport) => {
  it('is not offered on a first visit, but after the first answer; Install and Not now work', async () => {
    const newcomer = await e2e.registerPlayer(`new${viewport}`);
    const game = await createGame();
    const page = await e2e.open(`/GameDetails?id=${game.id}`, {
      authToken: newcomer.token,
      viewport,
      serviceWorkers: true,
    });
    await waitForScreen(page);
    await page.waitForFunction(() => document.getElementById('pwa-prompts') !== null);
    await offerInstall(page);
    const prompt = page.getByRole('region', { name: 'Install Pluckers' });
    await page.waitForTimeout(500);
    expect(await prompt.count()).toBe(0);

    await page.getByRole('button', { name: 'Submit Your Answer' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Your answer').fill('Installed on my phone');
    await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
    await dialog.getByText('Your answer has been submitted!').waitFor();
    // Not under the success dialog's backdrop (dimmed, out of reach): after it closes.
    await page.waitForTimeout(500);
    expect(await prompt.count()).toBe(0);
    await shot(page, `install-prompt-held-${viewport}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await prompt.waitFor();
    await shot(page, `install-prompt-${viewport}`);
    await expectNoSeriousA11yViolations(page, `install prompt at ${viewport}`);

    if (viewport === 'mobile') {
      await prompt.getByRole('button', { name: 'Install' }).click();
      await prompt.waitFor({ state: 'detached' });
      expect(
        await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted),
      ).toBe(true);
    } else {
      // Not now is kept: a later offer on this device shows nothing.
      await prompt.getByRole('button', { name: 'Not now' }).click();
      await prompt.waitFor({ state: 'detached' });
      await page.reload();
      await waitForScreen(page);
      await page.waitForFunction(() => document.getElementById('pwa-prompts') !== null);
      await offerInstall(page);
      await page.waitForTimeout(500);
      expect(await prompt.count()).toBe(0);
    }
  });
});

describe('a new version', () => {
  it('is announced with "Update available — reload" and taken on Reload', async () => {
    const page = await e2e.open('/login', { serviceWorkers: true });
    await waitForScreen(page);
    await controlledBy(page);

    // Publish a new build: the worker's script changes, so the browser installs the new one
    // beside the running one and it waits for the player.
    await appendFile(path.join(need(webCopy, 'the build copy'), 'sw.js'), '\n// a new version\n');
    await page.evaluate(() =>
      navigator.serviceWorker.getRegistration().then((registration) => registration?.update()),
    );
    const notice = page.getByRole('status').filter({ hasText: 'Update available — reload' });
    await notice.waitFor();
    await shot(page, 'update-available');
    await expectNoSeriousA11yViolations(page, 'update notice');

    await Promise.all([
      page.waitForEvent('framenavigated'),
      notice.getByRole('button', { name: 'Reload' }).click(),
    ]);
    await waitForScreen(page);
    expect(await page.getByText('Update available — reload').count()).toBe(0);
  });
});

describe.each(VIEWPORT_NAMES)('low-data mode, at %s width', (viewport) => {
  it('Data saver in Profile is kept on the device and skips installing the worker', async () => {
    const page = await openAsPlayer('/Profile', viewport);
    await waitForScreen(page);
    const toggle = page.getByRole('switch', { name: 'Data saver' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.scrollIntoViewIfNeeded();
    await shot(page, `data-saver-${viewport}`);
    await expectNoSeriousA11yViolations(page, `Profile with Data saver at ${viewport}`);

    // A fresh context with the switch stored: the page loads, the worker never registers.
    // (Stored first from a page that runs none of the app's scripts.)
    const saving = await e2e.open('/api/health', {
      authToken: need(player, 'a player').token,
      viewport,
      serviceWorkers: true,
    });
    await saving.evaluate(() => localStorage.setItem('pluckers.dataSaver', '1'));
    await saving.goto(`${e2e.server.url}/Profile`);
    await waitForScreen(saving);
    await saving.waitForFunction(() => document.getElementById('pwa-prompts') !== null);
    expect(
      await saving.getByRole('switch', { name: 'Data saver' }).getAttribute('aria-checked'),
    ).toBe('true');
    await saving.waitForTimeout(1_000);
    expect(
      await saving.evaluate(() =>
        navigator.serviceWorker
          .getRegistration()
          .then((registration) => registration === undefined),
      ),
    ).toBe(true);
  });
});

describe('signing out', () => {
  it("empties the saved reads: the next player never sees the last one's data offline", async () => {
    const leaver = await e2e.registerPlayer('leaver');
    const page = await e2e.open('/Home', {
      authToken: leaver.token,
      viewport: 'desktop',
      serviceWorkers: true,
    });
    await controlledBy(page);
    await waitForScreen(page);
    await page.waitForFunction(async () => {
      const saved = await caches.open('pluckers-api-reads');
      return (await saved.keys()).some((request) => request.url.endsWith('/api/v1/user'));
    });

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.waitForFunction(() => caches.has('pluckers-api-reads').then((kept) => !kept));
  });
});
