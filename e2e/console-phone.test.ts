import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  OPERATOR_ENV,
  operatorToken,
  type Player,
  saveBankAccount,
  topUpThroughSandbox,
} from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, VIEWPORTS, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';
import { createGame, playUntilDrawn } from './support/games.ts';

/**
 * The operator console on a phone. Every console table fits a 390 px screen
 * (rows become cards; no column or action off-screen), a finished game's preview shows its
 * result instead of places left and Pluck in, and a player has one name on the game's page.
 */

const e2e = e2eSuite({ mail: true, env: () => ({ ...OPERATOR_ENV, JOB_POLL_MS: '250' }) });

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

interface World {
  operator: string;
  gameId: string;
  winners: string[];
  payer: Player;
  payerId: string;
}
let world: World | undefined;

function need(): World {
  if (!world) throw new Error('the set-up did not finish');
  return world;
}

/** A drawn game of five, and a player who topped up, saved a bank account and withdrew. */
beforeAll(async () => {
  const baseUrl = e2e.server.url;
  const operator = await operatorToken(baseUrl);
  const gameId = await createGame(baseUrl, operator, {
    title: `Console phone game ${Date.now().toString(36)}`,
    description: 'Name a song that always gets everyone dancing at an owambe.',
  });
  const players: Player[] = [];
  for (let index = 0; index < 5; index += 1) {
    players.push(await e2e.registerPlayer(`cons${index}`));
  }
  const winners = await playUntilDrawn(baseUrl, gameId, players);

  const payer = players[1];
  if (!payer) throw new Error('no player');
  await topUpThroughSandbox(baseUrl, payer.token, 3000);
  await saveBankAccount(baseUrl, payer.token);
  await api(baseUrl, 'POST', '/withdrawal', { token: payer.token, body: { amount: 500 } });
  const me = await api<{ data: { id: string } }>(baseUrl, 'GET', '/user', { token: payer.token });
  // A message from the support page, for the console's Support page.
  await api(baseUrl, 'POST', '/support', {
    body: {
      name: payer.fullname,
      email: `support-${Date.now().toString(36)}@example.test`,
      category: 'Withdrawals',
      subject: 'My withdrawal of ₦500 has not arrived in my GTBank account yet',
      message: 'I withdrew ₦500 this morning.\nPlease tell me when it will arrive.',
    },
  });
  world = { operator, gameId, winners, payer, payerId: me.data.id };
}, 120_000);

/**
 * What does not fit the screen: tables wider than their card (columns cut off behind a
 * sideways scroll) and buttons or links of the page's main area outside the viewport.
 */
async function misfits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) {
      // Named by the outermost element that reaches past the screen's right edge.
      const wide = [...document.querySelectorAll<HTMLElement>('body *')].find(
        (element) => element.getBoundingClientRect().right > width + 1,
      );
      const name = wide
        ? `<${wide.tagName.toLowerCase()} class="${wide.getAttribute('class') ?? ''}">`
        : 'no element';
      found.push(`the page scrolls sideways: ${name}`);
    }
    for (const table of document.querySelectorAll('main table')) {
      const region = table.parentElement;
      if (!region) continue;
      const hidden = region.scrollWidth - region.clientWidth;
      if (hidden > 1) {
        const caption = table.querySelector('caption')?.textContent ?? 'a table';
        found.push(`${caption}: ${hidden} px cut off`);
      }
    }
    for (const control of document.querySelectorAll<HTMLElement>(
      'main button, main a[href], main summary',
    )) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.right > width + 1 || box.left < -1) {
        // A strip that scrolls sideways may hold more, when it says so (a visible hint).
        const strip = control.closest('[data-scroll-strip]');
        const side = box.right > width + 1 ? 'right' : 'left';
        if (strip?.parentElement?.querySelector(`[data-scroll-hint="${side}"]`)) continue;
        const name = control.getAttribute('aria-label') ?? control.textContent?.trim() ?? '';
        found.push(
          `"${name.slice(0, 40)}" off-screen (${Math.round(box.left)}–${Math.round(box.right)})`,
        );
      }
    }
    return found;
  });
}

const SCREENS = (w: World) => [
  { name: 'dashboard', path: '/admin', heading: 'Dashboard' },
  { name: 'games', path: '/admin/games', heading: 'Games' },
  { name: 'game', path: `/admin/games/${w.gameId}`, heading: /^Console phone game/ },
  { name: 'users', path: '/admin/users', heading: 'Users' },
  { name: 'user', path: `/admin/users/${w.payerId}`, heading: w.payer.fullname },
  { name: 'withdrawals', path: '/admin/withdrawals', heading: 'Withdrawals' },
  { name: 'kyc', path: '/admin/kyc', heading: 'Identity documents' },
  { name: 'audit', path: '/admin/audit', heading: 'Audit log' },
  { name: 'sandbox-payments', path: '/admin/sandbox-payments', heading: 'Sandbox payments' },
  { name: 'support', path: '/admin/support', heading: 'Support' },
  { name: 'categories', path: '/admin/categories', heading: 'Categories' },
];

describe.each(VIEWPORT_NAMES)('Operator console at %s width', (viewport) => {
  const { width } = VIEWPORTS[viewport];

  it('every screen fits: no cut-off column, no off-screen action (axe-clean)', async () => {
    const w = need();
    await mkdir(ARTIFACTS, { recursive: true });
    const problems: string[] = [];
    // One page goes to every screen in turn, each by a full load, as an operator's phone would.
    let opened: Page | undefined;
    for (const screen of SCREENS(w)) {
      const page = opened ?? (await e2e.open(screen.path, { viewport, authToken: w.operator }));
      if (opened) await page.goto(`${e2e.server.url}${screen.path}`);
      opened = page;
      await page.getByRole('heading', { level: 1, name: screen.heading }).waitFor();
      // Every section loaded: no spinner left (their labels start with Loading).
      await expect
        .poll(
          () =>
            page
              .getByRole('status')
              .filter({ hasText: /^Loading/ })
              .count(),
          {
            timeout: 15_000,
          },
        )
        .toBe(0);
      await waitForScreen(page);
      if (screen.name !== 'dashboard' && screen.name !== 'kyc' && screen.name !== 'categories') {
        await page.locator('main table').first().waitFor();
      }
      problems.push(...(await misfits(page)).map((problem) => `${screen.path}: ${problem}`));
      await expectNoSeriousA11yViolations(page, `${screen.path} at ${width} px`);
      await page.screenshot({
        path: `${ARTIFACTS}console-${screen.name}-${width}.png`,
        fullPage: true,
      });
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it('the dashboard never scrolls sideways, not even for the frame before its chart is measured', async () => {
    const w = need();
    const page = await e2e.open('/admin/games', { viewport, authToken: w.operator });
    // Every frame from the next load on: how far the page reached past the screen's right edge.
    await page.addInitScript(() => {
      const seen = window as unknown as { widestOverflow: number };
      seen.widestOverflow = 0;
      const watch = () => {
        const root = document.documentElement;
        seen.widestOverflow = Math.max(seen.widestOverflow, root.scrollWidth - root.clientWidth);
        requestAnimationFrame(watch);
      };
      requestAnimationFrame(watch);
    });
    await page.goto(`${e2e.server.url}/admin`);
    await page.getByRole('img', { name: /^Deposits, prizes and house margin/ }).waitFor();
    await waitForScreen(page);
    const widest = await page.evaluate(
      () => (window as unknown as { widestOverflow: number }).widestOverflow,
    );
    expect(widest).toBe(0);
  });

  it("a finished game's preview shows its result, and each player has one name", async () => {
    const w = need();
    const page = await e2e.open(`/admin/games/${w.gameId}`, { viewport, authToken: w.operator });
    const preview = page.getByRole('figure', { name: 'Player card preview' });
    await preview.getByText('Drawn: 1 winner of 5 players').waitFor();
    const text = (await preview.textContent()) ?? '';
    expect(text).not.toMatch(/Plucker(s)? Left/);
    expect(text).not.toContain('Pluck in');

    // The winner is named alike in the draw proof and in the entries, by the public username.
    const [winner] = w.winners;
    if (!winner) throw new Error('no winner drawn');
    expect(winner).toMatch(/^plucker_/);
    const entries = page.getByRole('table', { name: 'Entries' });
    const winnerRow = entries.getByRole('row').filter({ hasText: 'Winner' });
    await winnerRow.getByRole('link', { name: winner, exact: true }).waitFor();
    await page.getByText(new RegExp(`^#\\d+ ${winner}$`)).waitFor();
    for (const row of await entries.getByRole('row').filter({ hasText: 'Answer number' }).all()) {
      expect(await row.getByRole('link').first().textContent()).toMatch(/^plucker_/);
    }
    await waitForScreen(page);
    await preview.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${ARTIFACTS}console-game-preview-${width}.png` });
    await entries.scrollIntoViewIfNeeded();
    await entries.screenshot({ path: `${ARTIFACTS}console-entries-${width}.png` });
  });
});
