import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pngOf } from '../src/server/modules/profile/test-fixtures.ts';
import {
  api,
  balanceOf,
  OPERATOR,
  OPERATOR_ENV,
  operatorToken,
  PLAYER_PASSWORD,
  registerPlayer,
  topUpThroughSandbox,
} from './support/accounts.ts';
import { e2eSuite } from './support/fixture.ts';
import { openAnswerDialog } from './support/games.ts';
import { type RunningServer, startServer } from './support/server.ts';
import { type StaticWeb, startStaticWeb } from './support/static-web.ts';

/**
 * The web app served by a plain static host on one origin, the API on
 * another, as clients of this API are deployed. With the web app's origin in CORS_ORIGINS a
 * player signs in, sees the games and their photo, and plays; without it the browser refuses.
 */
let web: StaticWeb | undefined;
const e2e = e2eSuite({
  mail: true,
  env: async () => {
    web = await startStaticWeb(inject('webDist'), () => e2e.server.url);
    return { ...OPERATOR_ENV, CORS_ORIGINS: web.url };
  },
});
afterAll(async () => {
  await web?.close();
});

const ENTRY_FEE = 150;
const TITLE = `Cross-origin riddle ${Date.now().toString(36)}`;

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the suite did not set up ${what}`);
  return value;
}

async function uploadPhoto(baseUrl: string, token: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(await pngOf(90))], { type: 'image/png' }), 'me.png');
  const response = await fetch(`${baseUrl}/api/v1/upload/profile-photo`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { data: { profilePhoto: string } }).data.profilePhoto;
}

describe('the web app on another origin than the API', () => {
  it('signs in, shows the games and the photo, and plays, all against the API origin', async () => {
    const apiUrl = e2e.server.url;
    const webUrl = need(web, 'the static web server').url;
    expect(new URL(webUrl).origin).not.toBe(new URL(apiUrl).origin);

    const admin = await operatorToken(apiUrl);
    await api(apiUrl, 'POST', '/admin/games', {
      token: admin,
      body: { title: TITLE, entryFee: ENTRY_FEE, reward: 500, maximumPlayers: 20 },
    });
    const player = await registerPlayer(apiUrl, e2e.mail, 'faraway');
    await topUpThroughSandbox(apiUrl, player.token, 1000);
    const photo = await uploadPhoto(apiUrl, player.token);

    // Desktop: the photo shows in the top bar there (on a phone, only in the opened menu).
    const page = await e2e.open(`${webUrl}/login`, { viewport: 'desktop' });
    // Every call the page makes, by origin: the API's must all succeed, none may go to its own.
    const calls: string[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/api/'))
        calls.push(
          `${url.origin} ${response.request().method()} ${url.pathname}${url.search} ${response.status()}`,
        );
    });
    await page.getByRole('heading', { level: 1, name: 'Welcome back, Plucker' }).waitFor();
    await page.getByLabel('Email').fill(player.email);
    await page.getByLabel('Password').fill(PLAYER_PASSWORD);
    const [login] = await Promise.all([
      page.waitForResponse((response) => response.url() === `${apiUrl}/api/v1/auth/login`),
      page.getByRole('button', { name: 'Log in' }).click(),
    ]);
    expect(login.status()).toBe(200);
    await page.getByRole('heading', { name: 'FEED YOUR WALLET' }).waitFor();
    expect(new URL(page.url()).origin).toBe(webUrl);

    // The photo comes from the API's origin, which lets this page show it (CORP cross-origin).
    const avatar = page.locator(`img[src="${apiUrl}${photo}"]:visible`).first();
    await avatar.waitFor();
    await expect
      .poll(() =>
        avatar.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth),
      )
      .toBeGreaterThan(0);

    const dialog = await openAnswerDialog(page, TITLE);
    await dialog.getByLabel('Your answer').fill('Played from another origin');
    const [played] = await Promise.all([
      page.waitForResponse((response) => response.url() === `${apiUrl}/api/v1/game/play`),
      dialog.getByRole('button', { name: 'Submit', exact: true }).click(),
    ]);
    expect(played.status(), await played.text()).toBeLessThan(300);
    await dialog.getByText('Your answer has been submitted!').waitFor();
    expect(await balanceOf(apiUrl, player.token)).toBe(1000 - ENTRY_FEE);

    expect(calls).toEqual(
      expect.arrayContaining([
        `${apiUrl} POST /api/v1/auth/login 200`,
        `${apiUrl} GET /api/v1/game?gameType=NEW_CHALLANGES 200`,
      ]),
    );
    expect(calls.filter((call) => !call.startsWith(`${apiUrl} `))).toEqual([]);
    expect(calls.filter((call) => !/ [23]\d\d$/.test(call))).toEqual([]);
  });
});

describe('the same setup without CORS_ORIGINS', () => {
  let server: RunningServer | undefined;
  let otherWeb: StaticWeb | undefined;
  beforeAll(async () => {
    server = await startServer({
      serverMain: inject('serverMain'),
      template: inject('dataTemplate'),
      env: { ...OPERATOR_ENV, WEB_DIST: inject('webDist') },
    });
    otherWeb = await startStaticWeb(inject('webDist'), () => need(server, 'the server').url);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), otherWeb?.close()]);
  });

  it('is refused by the browser: signing in fails and the API cannot be read', async () => {
    const apiUrl = need(server, 'the server').url;
    const webUrl = need(otherWeb, 'the static web server').url;
    // Chromium says so in the console for each refused call.
    const page = await e2e.open(`${webUrl}/login`, {
      allowConsoleErrors: [/blocked by CORS policy/, /net::ERR_FAILED/],
    });
    await page.getByRole('heading', { level: 1, name: 'Welcome back, Plucker' }).waitFor();
    await page.getByLabel('Email').fill(OPERATOR.email);
    await page.getByLabel('Password').fill(OPERATOR.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Network Error').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');

    // A simple GET needs no preflight, but the page still may not read the answer.
    const read = await page.evaluate(async (url) => {
      try {
        await fetch(`${url}/api/v1/settings`);
        return 'read';
      } catch (error) {
        return error instanceof TypeError ? 'blocked' : String(error);
      }
    }, apiUrl);
    expect(read).toBe('blocked');
    // The same credentials work where the web app is served by the API itself.
    expect(await operatorToken(apiUrl)).toEqual(expect.any(String));
  });
});
