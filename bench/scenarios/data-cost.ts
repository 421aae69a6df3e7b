/**
 * What the web app costs a player's data plan, measured as the bytes the server
 * actually sends (headers and compressed bodies), counted by a pass-through proxy in front of
 * it: what the service worker or the browser's cache answers costs nothing and is not counted,
 * and the worker's own downloads (its precache) are. One Chromium profile, in order:
 * - first visit: Home signed in, from nothing, until the service worker has installed;
 * - repeat visit: Home opened again (the worker answers the shell, the API is asked again);
 * - one played game: from Home, a free game's page opened and an answer submitted.
 * With the Lighthouse-like mobile throttling of the web section (150 ms, 1.6 Mbit/s).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import { PLAYWRIGHT_CHROMIUM_ARGS } from '../../e2e/support/browser.ts';
import { STORAGE_KEYS } from '../../src/shared/constants.ts';
import type { Game } from '../../src/shared/schemas/games.ts';
import { chromiumPath } from '../lib/chromium.ts';
import type { ReadServer } from './read.ts';

export const REPEAT_VISIT_BUDGET_BYTES = 20 * 1024;

interface Meter {
  url: string;
  bytes(): number;
  reset(): void;
  close(): Promise<void>;
}

/** A proxy that forwards everything to `target` and counts the bytes of every response. */
async function startMeter(target: string): Promise<Meter> {
  const upstream = new URL(target);
  let total = 0;
  const proxy = http.createServer((request, response) => {
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: upstream.host },
      },
      (answer) => {
        // Status line and headers as they go on the wire, then the (encoded) body.
        total += `HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\n`.length;
        for (let i = 0; i < answer.rawHeaders.length; i += 2) {
          total += `${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}\r\n`.length;
        }
        total += 2;
        response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.on('data', (chunk: Buffer) => {
          total += chunk.length;
        });
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bytes: () => total,
    reset: () => {
      total = 0;
    },
    close: () => {
      proxy.closeAllConnections();
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}

const TABS = {
  TRENDING: 'Trending Games',
  NEW: 'New Challenges',
  HIGHEST_PAYOUT: 'Highest Payouts',
};

/** A free game the player has not entered and the Home tab listing it, or null. */
async function freeGame(server: ReadServer): Promise<{ title: string; tab: string } | null> {
  for (const [gameType, tab] of Object.entries(TABS)) {
    const response = await fetch(`${server.url}/api/v1/game?gameType=${gameType}`, {
      headers: { authorization: `Bearer ${server.idlePlayerToken}` },
    });
    if (!response.ok) continue;
    const body = (await response.json()) as {
      data?: { games?: Game[] };
    };
    const game = body.data?.games?.find(
      (entry) =>
        entry.entryFee === 0 &&
        !entry.hasPlayedGame &&
        !entry.isTournament &&
        entry.status === 'ONGOING' &&
        entry.playerCount < entry.maximumPlayers,
    );
    if (game) return { title: game.title, tab };
  }
  return null;
}

/** Waits until the network has been quiet for a moment (the worker's precache included). */
async function settle(page: Page, meter: Meter): Promise<void> {
  let last = -1;
  while (meter.bytes() !== last) {
    last = meter.bytes();
    await page.waitForTimeout(1_500);
  }
}

export interface DataCost {
  firstVisitBytes: number;
  repeatVisitBytes: number;
  playedGameBytes: number | null;
  playedGameNote?: string;
}

export async function measureDataCost(server: ReadServer): Promise<DataCost> {
  const meter = await startMeter(server.url);
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: PLAYWRIGHT_CHROMIUM_ARGS,
  });
  try {
    const context = await browser.newContext({
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 1.75,
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'allow',
    });
    await context.addInitScript(
      ([key, token]) => {
        if (!localStorage.getItem(key as string))
          localStorage.setItem(key as string, token as string);
      },
      [STORAGE_KEYS.token, server.idlePlayerToken],
    );
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    await session.send('Network.enable');
    await session.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    });

    meter.reset();
    await page.goto(`${meter.url}/Home`, { waitUntil: 'networkidle' });
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await settle(page, meter);
    const firstVisitBytes = meter.bytes();

    meter.reset();
    await page.goto(`${meter.url}/Home`, { waitUntil: 'networkidle' });
    await page.getByRole('article').first().waitFor();
    await settle(page, meter);
    const repeatVisitBytes = meter.bytes();

    const game = await freeGame(server);
    if (!game) {
      return {
        firstVisitBytes,
        repeatVisitBytes,
        playedGameBytes: null,
        playedGameNote: 'no free game open to the bench player',
      };
    }
    meter.reset();
    const refusals: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/') && response.status() >= 400) {
        void response.text().then(
          (body) => refusals.push(`${response.status()} ${body.slice(0, 200)}`),
          () => refusals.push(String(response.status())),
        );
      }
    });
    try {
      // From Home, as a player would: its tab, the game's card, Pluck in, the answer.
      await page.getByRole('tab', { name: game.tab }).click();
      const card = page.getByRole('article', { name: game.title }).first();
      await card.getByRole('button', { name: 'Pluck in' }).click();
      await page.getByRole('button', { name: 'Submit Your Answer' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Your answer').fill('An answer from the data bench');
      await dialog.getByRole('button', { name: 'Submit', exact: true }).click();
      await dialog.getByText('Your answer has been submitted!').waitFor();
    } catch (error) {
      // What the player saw says why: a refusal in the dialog, or the page it got stuck on.
      const shown =
        (await page
          .locator('[role="dialog"], main')
          .first()
          .textContent({ timeout: 2_000 })
          .catch(() => null)) ?? '(nothing shown)';
      return {
        firstVisitBytes,
        repeatVisitBytes,
        playedGameBytes: null,
        playedGameNote: `the game could not be played: ${String(error).split('\n')[0]}; on screen at ${page.url()}: ${shown.replace(/\s+/g, ' ').slice(0, 300)}; refused: ${refusals.join(' | ') || 'nothing'}`,
      };
    }
    await settle(page, meter);
    return { firstVisitBytes, repeatVisitBytes, playedGameBytes: meter.bytes() };
  } finally {
    await browser.close();
    await meter.close();
  }
}
