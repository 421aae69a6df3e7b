/**
 * Push notifications in Debian Chromium: a player turns them on from the
 * Notifications page and chooses what to hear about; the server then sends a real, encrypted
 * push to the subscription. No real push service is reachable from here, so the browser's
 * PushManager is stood in for: it hands the page a subscription minted by the local push
 * service stand-in (a real P-256 key pair and auth secret), which decrypts what the server sends.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type FakePushService,
  startFakePushService,
} from '../src/server/test/fake-push-service.ts';
import { api, OPERATOR_ENV, operatorToken } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, VIEWPORTS, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';

let pushService: FakePushService | undefined;
const e2e = e2eSuite({
  mail: true,
  env: async () => {
    pushService = await startFakePushService();
    // The stand-in listens on 127.0.0.1, where a server only posts with this test setting.
    return { ...OPERATOR_ENV, PUSH_ALLOW_LOCAL_ENDPOINTS: 'true' };
  },
});
afterAll(async () => {
  await pushService?.close();
});

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

/** Before any of the app's scripts: PushManager and the permission prompt stood in for. */
async function standInPush(page: Page, subscription: unknown): Promise<void> {
  await page.addInitScript((json) => {
    let current: PushSubscription | null = null;
    const make = () =>
      ({
        endpoint: (json as { endpoint: string }).endpoint,
        toJSON: () => json,
        unsubscribe: async () => {
          current = null;
          return true;
        },
      }) as unknown as PushSubscription;
    const pushManager = {
      getSubscription: async () => current,
      subscribe: async () => {
        current = make();
        return current;
      },
    };
    let permission: NotificationPermission = 'default';
    Object.defineProperty(Notification, 'permission', { get: () => permission });
    Notification.requestPermission = async () => {
      permission = 'granted';
      return permission;
    };
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { ready: Promise.resolve({ pushManager }), register: async () => ({}) },
    });
  }, subscription);
}

describe.each(VIEWPORT_NAMES)('notification settings at %s width', (viewport) => {
  const { width } = VIEWPORTS[viewport];

  it('turns push on for this device, saves the switches, and a push reaches the device', async () => {
    if (!pushService) throw new Error('the fake push service is not running');
    const service = pushService;
    const player = await e2e.registerPlayer('pusher');
    const device = service.subscribe();
    const page = await e2e.open('/login', { viewport, authToken: player.token });
    await standInPush(page, device.json);
    await page.goto(`${e2e.server.url}/Notifications`);
    await waitForScreen(page);
    const settings = page.getByRole('region', { name: 'Notifications on this device' });
    await settings.getByText(/^Off: turn them on/).waitFor();
    await mkdir(ARTIFACTS, { recursive: true });
    await expectNoSeriousA11yViolations(page, `/Notifications at ${width} px`);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${ARTIFACTS}push-settings-off-${width}.png`, fullPage: true });

    await settings.getByRole('button', { name: 'Turn on' }).click();
    await settings.getByText(/^On: this device shows/).waitFor();
    await page.getByText('Notifications are on for this device').waitFor();

    // Withdrawals paid off; kept by the server.
    const withdrawals = settings.getByRole('switch', { name: 'Withdrawals paid' });
    await withdrawals.click();
    await expect.poll(() => withdrawals.getAttribute('aria-checked')).toBe('false');
    await expect
      .poll(async () =>
        api<{ data: { withdrawals: boolean } }>(
          e2e.server.url,
          'GET',
          '/notification/preferences',
          {
            token: player.token,
          },
        ).then((body) => body.data.withdrawals),
      )
      .toBe(false);
    await expectNoSeriousA11yViolations(page, `/Notifications (on) at ${width} px`);
    await page.screenshot({ path: `${ARTIFACTS}push-settings-on-${width}.png`, fullPage: true });

    // A tournament opens: the worker sends this device an encrypted push, opening the game.
    const admin = await operatorToken(e2e.server.url);
    const title = `Push tournament ${width} ${Date.now().toString(36)}`;
    const created = await api<{ data: { id: string } }>(e2e.server.url, 'POST', '/admin/games', {
      token: admin,
      body: { title, reward: 500, maximumPlayers: 20, entryFee: 0, isTournament: true },
    });
    await expect
      .poll(() => service.receivedBy(device.endpoint).length, { timeout: 30_000 })
      .toBe(1);
    expect(service.receivedBy(device.endpoint)[0]?.payload).toEqual({
      title: 'A tournament is open',
      body: `"${title}" is now open in the Tournament Hub.`,
      url: `/GameDetails?id=${created.data.id}`,
      tag: `tournament:${created.data.id}`,
    });
    expect(service.rejected).toEqual([]);
  });
});

/** Notifications allowed, but the browser's push service refuses to subscribe (Chromium without one). */
async function noPushService(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const pushManager = {
      getSubscription: async () => null,
      subscribe: async () => {
        throw new DOMException('Registration failed - push service not available', 'AbortError');
      },
    };
    Object.defineProperty(Notification, 'permission', { get: () => 'granted' });
    Notification.requestPermission = async () => 'granted';
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { ready: Promise.resolve({ pushManager }), register: async () => ({}) },
    });
  });
}

describe.each(VIEWPORT_NAMES)('a browser without a push service, at %s width', (viewport) => {
  const { width } = VIEWPORTS[viewport];

  it('Turn on says why nothing can be shown here and what still reaches the player', async () => {
    const player = await e2e.registerPlayer(`nopush${width}`);
    const page = await e2e.open('/login', { viewport, authToken: player.token });
    await noPushService(page);
    await page.goto(`${e2e.server.url}/Notifications`);
    await waitForScreen(page);
    const settings = page.getByRole('region', { name: 'Notifications on this device' });
    await settings.getByRole('button', { name: 'Turn on' }).click();
    await settings.getByText(/^This browser cannot deliver notifications/).waitFor();
    await page.getByText('Notifications could not be turned on in this browser').waitFor();
    await settings.getByRole('button', { name: 'Try again' }).waitFor();
    await mkdir(ARTIFACTS, { recursive: true });
    await expectNoSeriousA11yViolations(
      page,
      `/Notifications without a push service at ${width} px`,
    );
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${ARTIFACTS}push-no-service-${width}.png`, fullPage: true });
  });
});

describe('after an answer', () => {
  it('the answer notice leads to the notification settings while the browser was not asked', async () => {
    if (!pushService) throw new Error('the fake push service is not running');
    const player = await e2e.registerPlayer('answerer');
    const admin = await operatorToken(e2e.server.url);
    const title = `Name a Lagos market ${Date.now().toString(36)}`;
    const created = await api<{ data: { id: string } }>(e2e.server.url, 'POST', '/admin/games', {
      token: admin,
      body: { title, reward: 500, maximumPlayers: 20, entryFee: 0 },
    });
    const page = await e2e.open('/login', { authToken: player.token });
    await standInPush(page, pushService.subscribe().json);
    await page.goto(`${e2e.server.url}/GameDetails?id=${created.data.id}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('button', { name: 'Submit Your Answer' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Your answer').fill('Balogun');
    await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
    await dialog.getByText('Your answer has been submitted!').waitFor();
    const optIn = dialog.getByRole('link', { name: 'Get them on this device too' });
    await optIn.waitFor();
    await expectNoSeriousA11yViolations(page, 'the answer dialog with the push opt-in');
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}push-opt-in-after-answer-390.png` });
    await optIn.click();
    await page.waitForURL((url) => url.pathname === '/Notifications');
    await page.getByRole('button', { name: 'Turn on' }).waitFor();
  });
});
