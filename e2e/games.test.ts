import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  api,
  balanceOf,
  OPERATOR_ENV,
  operatorToken,
  type Player,
  registerPlayer,
  topUpThroughSandbox,
} from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { VIEWPORT_NAMES, VIEWPORTS, waitForScreen } from './support/browser.ts';
import { e2eSuite } from './support/fixture.ts';
import { openAnswerDialog } from './support/games.ts';

/** Screenshots for review (gitignored). */
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

const e2e = e2eSuite({ mail: true, env: () => ({ ...OPERATOR_ENV, JOB_POLL_MS: '250' }) });

const ENTRY_FEE = 200;
const REWARD = 700;
const PLAYERS = 6;
const TITLE = `E2E riddle ${Date.now().toString(36)}`;

interface Totals {
  entryFees: number;
  prizesPaid: number;
}
interface DrawProof {
  status: string;
  winnerUsernames: string[];
  entries: { username: string }[];
}

const state: {
  admin?: string;
  players: Player[];
  gameId?: string;
  before?: Totals;
  winners?: string[];
} = { players: [] };

async function reportTotals(): Promise<Totals> {
  const report = await api<{ data: { totals: Totals } }>(e2e.server.url, 'GET', '/admin/reports', {
    token: state.admin,
  });
  return report.data.totals;
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`an earlier test did not set up ${what}`);
  return value;
}

describe('a paid game from creation to the verified draw', () => {
  it('the operator creates a paid game in the console', async () => {
    state.admin = await operatorToken(e2e.server.url);
    state.before = await reportTotals();

    const page = await e2e.open('/admin/games/new', {
      authToken: state.admin,
      viewport: 'desktop',
    });
    const form = page.getByRole('form', { name: 'New game' });
    await form.getByLabel('Title').fill(TITLE);
    await form
      .getByLabel('Description (optional)')
      .fill('Name the fruit that keeps the doctor away.');
    await form.getByLabel('Entry fee (₦)').fill(String(ENTRY_FEE));
    await form.getByLabel('Reward per winner (₦)').fill(String(REWARD));
    await form.getByLabel('Maximum players').fill('20');
    const [created] = await Promise.all([
      page.waitForResponse(
        (response) =>
          response.request().method() === 'POST' &&
          new URL(response.url()).pathname === '/api/v1/admin/games',
      ),
      form.getByRole('button', { name: 'Create game' }).click(),
    ]);
    expect(created.status()).toBe(201);
    const game = ((await created.json()) as { data: { id: string; status: string } }).data;
    expect(game.status).toBe('ONGOING');
    state.gameId = game.id;
    await page.waitForURL((url) => url.pathname === '/admin/games');
    await page.getByText(TITLE).first().waitFor();
  });

  it('players sign up, fund their wallets through the sandbox and answer', async () => {
    const url = e2e.server.url;
    const mail = e2e.mail;
    const gameId = need(state.gameId, 'the game');
    state.players = await Promise.all(
      Array.from({ length: PLAYERS }, (_, index) => registerPlayer(url, mail, `plucker${index}`)),
    );
    await Promise.all(state.players.map((player) => topUpThroughSandbox(url, player.token, 1000)));
    for (const player of state.players) expect(await balanceOf(url, player.token)).toBe(1000);

    // Everyone but the first player answers through the API.
    for (const [index, player] of state.players.slice(1).entries()) {
      await api(url, 'POST', '/game/play', {
        token: player.token,
        body: { gameID: gameId, submittedAnswer: `An apple a day, says player ${index}` },
      });
    }
  });

  it('a player finds the game on Home, plucks in and submits an answer', async () => {
    const player = need(state.players[0], 'the players');
    const page = await e2e.open('/Home', { authToken: player.token });
    const dialog = await openAnswerDialog(page, TITLE);
    const answer = dialog.getByLabel('Your answer');
    const submit = dialog.getByRole('button', { name: 'Submit', exact: true });
    await answer.fill(Array.from({ length: 21 }, (_, i) => `word${i + 1}`).join(' '));
    await dialog.getByText('21/20 words').waitFor();
    expect(await submit.isDisabled()).toBe(true);

    await answer.fill('An apple, obviously');
    await dialog.getByText('3/20 words').waitFor();
    await submit.click();
    await dialog.getByText('Your answer has been submitted!').waitFor();
    expect(await balanceOf(e2e.server.url, player.token)).toBe(1000 - ENTRY_FEE);

    await dialog.getByRole('link', { name: 'View Game Status' }).click();
    await page.waitForURL((url) => url.pathname.toLowerCase() === '/mysubmissions');
    const submission = page.getByRole('article', { name: TITLE });
    await submission.getByText('Status: Pending review', { exact: true }).waitFor();
  });

  it('the operator closes the game from the console and the draw runs', async () => {
    const gameId = need(state.gameId, 'the game');
    const page = await e2e.open(`/admin/games/${gameId}`, {
      authToken: need(state.admin, 'the operator'),
      viewport: 'desktop',
    });
    await page.getByRole('button', { name: 'Close now' }).click();
    const confirm = page.getByRole('dialog', { name: 'Close this game now?' });
    await confirm.getByRole('button', { name: 'Close game' }).click();
    await confirm.waitFor({ state: 'hidden' });

    let proof: DrawProof | undefined;
    await expect
      .poll(
        async () => {
          proof = (
            await api<{ data: DrawProof }>(e2e.server.url, 'GET', `/game/${gameId}/draw`, {
              token: state.players[0]?.token,
            })
          ).data;
          return proof.winnerUsernames.length;
        },
        { timeout: 15_000, interval: 250 },
      )
      .toBe(Math.floor(PLAYERS / 5));
    const drawn = need(proof, 'the draw');
    expect(drawn.entries).toHaveLength(PLAYERS);
    state.winners = drawn.winnerUsernames;
  });

  it('the player sees the outcome and the draw verifies on their device', async () => {
    const player = need(state.players[0], 'the players');
    const won = need(state.winners, 'the winners').includes(player.username);
    const page = await e2e.open('/MySubmissions', { authToken: player.token });
    const submission = page.getByRole('article', { name: TITLE });
    await submission.getByText(`Status: ${won ? 'WON' : 'LOST'}`, { exact: true }).waitFor();

    await page.goto(`${e2e.server.url}/GameDetails?id=${need(state.gameId, 'the game')}`);
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    await page.getByText('Verified: the draw matches.').waitFor();
    for (const winner of need(state.winners, 'the winners')) {
      await page.getByRole('listitem').filter({ hasText: winner }).first().waitFor();
    }
    // Every step of the fair draw re-checked on the device, in words, for a player to follow.
    const panel = page.getByRole('region', { name: 'Fair draw' });
    for (const step of [
      'Secret seed',
      'Sealed entries',
      'Public randomness',
      'Winners',
      'Public log',
    ]) {
      await panel.getByText(`${step}: passed`).waitFor();
    }
    await panel.getByText(/Beacon round \d+, the first published after the game closed/).waitFor();
  });

  it.each(VIEWPORT_NAMES)(
    'the Fair draw panel and the Fairness page at %s width: the whole log verifies on the device',
    async (viewport) => {
      const { width } = VIEWPORTS[viewport];
      await mkdir(ARTIFACTS, { recursive: true });
      const player = need(state.players[1], 'the players');
      const page = await e2e.open(`/GameDetails?id=${need(state.gameId, 'the game')}`, {
        viewport,
        authToken: player.token,
      });
      const panel = page.getByRole('region', { name: 'Fair draw' });
      await panel.getByText('Public log: passed').waitFor();
      await waitForScreen(page);
      await expectNoSeriousA11yViolations(page, `/GameDetails (drawn) at ${width} px`);
      await panel.screenshot({ path: `${ARTIFACTS}fair-draw-panel-${width}.png` });

      await panel.getByRole('link', { name: /the public fairness log/ }).click();
      await page.waitForURL((url) => url.pathname === '/Fairness');
      await page
        .getByRole('heading', { level: 1, name: 'Draws nobody can bend, not even us' })
        .waitFor();
      await page.getByText('Latest hash (the head)').waitFor();
      await page.getByRole('button', { name: 'Download and verify the whole log' }).click();
      await page.getByText('The log is intact.').waitFor();
      await page.getByRole('button', { name: 'Save a copy (JSON)' }).waitFor();
      await waitForScreen(page);
      await expectNoSeriousA11yViolations(page, `/Fairness at ${width} px`);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${ARTIFACTS}fairness-page-${width}.png`, fullPage: true });
    },
  );

  it('the leaderboard shows the winner and the reports add up', async () => {
    const winners = need(state.winners, 'the winners');
    const winner = need(
      state.players.find((player) => winners.includes(player.username)),
      'a winner',
    );
    expect(await balanceOf(e2e.server.url, winner.token)).toBe(1000 - ENTRY_FEE + REWARD);

    const board = await e2e.open('/LeaderBoard', { authToken: winner.token });
    await board
      .getByRole('list', { name: 'Top players' })
      .getByText(winner.username, { exact: true })
      .waitFor();

    const before = need(state.before, 'the first report');
    const after = await reportTotals();
    const entryFees = before.entryFees + ENTRY_FEE * PLAYERS;
    const prizes = before.prizesPaid + REWARD * Math.floor(PLAYERS / 5);
    expect(after.entryFees).toBe(entryFees);
    expect(after.prizesPaid).toBe(prizes);

    const dashboard = await e2e.open('/admin', {
      authToken: need(state.admin, 'the operator'),
      viewport: 'desktop',
    });
    const naira = (value: number) => `₦${value.toLocaleString('en-NG')}`;
    const figure = (label: string) =>
      dashboard.locator('dl > div').filter({ has: dashboard.getByText(label, { exact: true }) });
    await figure('Entry fees').getByText(naira(entryFees), { exact: true }).waitFor();
    await figure('Prizes paid').getByText(naira(prizes), { exact: true }).waitFor();
  });
});
