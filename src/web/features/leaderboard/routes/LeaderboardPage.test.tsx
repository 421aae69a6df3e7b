import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, within } from '@testing-library/react';
import { setUser } from '@web/lib/session.ts';
import { Toaster } from '@web/lib/toast.tsx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { sendJson, startFakeServer } from '../../../test/fake-server.ts';
import {
  adminToken,
  createCategory,
  createGame,
  playAs,
  signInPlayer,
  startProxy,
  uniqueTitle,
  waitForStatus,
} from '../../../test/games.ts';
import type { LeaderboardParams } from '../api/get-leaderboard.ts';
import { LeaderboardPage } from './LeaderboardPage.tsx';

const server = testServerPerFile({ JOB_POLL_MS: '100' });

// A real server answers: give first loads (cold database, busy CI) more than the default 1 s.
configure({ asyncUtilTimeout: 5000 });

function renderPage(params?: LeaderboardParams) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <LeaderboardPage params={params} />
      <Toaster />
    </QueryClientProvider>,
  );
}

afterEach(() => setUser(null));

/**
 * Five players with the given points (so levels 1–4) answer a game of the test's own category
 * (so the ranking holds only them, even on a shared database); the draw picks one.
 */
async function drawnGame() {
  const admin = await adminToken(server());
  const categoryID = await createCategory(server(), admin);
  const game = await createGame(server(), admin, {
    categoryID,
    title: uniqueTitle('Leaderboard game'),
    maximumPlayers: 5,
    reward: 2500,
  });
  const plan = (
    (await (await fetch(`${server().origin}/api/v1/plan`)).json()) as {
      data: Array<{ id: string }>;
    }
  ).data[0];
  const setups = [
    { points: 0 },
    { points: 200 },
    { points: 600 },
    { points: 2500 },
    { points: 0, planId: plan?.id, planExpiresAt: new Date(Date.now() + 7 * 86_400_000) },
  ];
  const players = [];
  for (const setup of setups) {
    const user = await server().createUser(setup);
    const token = await server().tokenFor(user);
    await playAs(server(), token, game.id);
    players.push({ user, token });
  }
  const last = players[4];
  if (!last) throw new Error('no players');
  await waitForStatus(server(), last.token, game.id, 'COMPLETED');
  return { players, categoryID };
}

describe('LeaderboardPage', () => {
  beforeEach(() => setPageUrl(`${server().origin}/LeaderBoard`));

  it('shows the empty state when nobody has won in the window', async () => {
    await signInPlayer(server());
    renderPage({ dateFrom: '2001-01-01', dateTo: '2001-01-07' });
    expect(await screen.findByText('No winners yet')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'All games' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('ranks the players of drawn games with level pills, badges and verified ticks', async () => {
    const { players, categoryID } = await drawnGame();
    await signInPlayer(server());
    const proxy = await startProxy(server());
    setPageUrl(`${proxy.origin}/LeaderBoard`);

    renderPage({ categoryID });

    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['#', 'Player', 'Level', 'Total Winnings', 'Points', 'Status Badge']);
    expect(screen.getAllByRole('button', { name: /games/i }).map((b) => b.textContent)).toEqual([
      'All games',
    ]);
    // The board, and the player's own rank (shown even outside the top 10).
    expect(proxy.requests.map((request) => request.url).sort()).toEqual([
      `/api/v1/leaderboard/me?categoryID=${categoryID}`,
      `/api/v1/leaderboard?pageSize=10&categoryID=${categoryID}`,
    ]);

    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(5);
    // The winner (₦2,500) leads; everyone else has ₦0.
    const first = rows[0] as HTMLElement;
    expect(within(first).getByText('1')).toBeTruthy();
    expect(within(first).getByText('₦2,500')).toBeTruthy();

    const expected = [
      { handle: players[0]?.user.handle, level: 1, tone: 'green', badge: 'Rookie' },
      { handle: players[1]?.user.handle, level: 2, tone: 'blue', badge: 'Rising Talent' },
      { handle: players[2]?.user.handle, level: 3, tone: 'purple', badge: 'Steady Player' },
      { handle: players[3]?.user.handle, level: 4, tone: 'grey', badge: 'Steady Player' },
    ];
    for (const player of expected) {
      const row = rows.find((candidate) =>
        within(candidate).queryByText(`plucker_${player.handle}`),
      );
      if (!row) throw new Error(`no row for ${player.handle}`);
      const pill = within(row).getByText(`Level ${player.level}`);
      expect(pill.getAttribute('data-tone')).toBe(player.tone);
      expect(within(row).getByText(player.badge)).toBeTruthy();
      expect(within(row).queryByRole('img', { name: 'Verified' })).toBeNull();
    }
    // The VIP holder shows without the prefix and with the verified tick.
    const vip = rows.find((row) => within(row).queryByText(players[4]?.user.handle ?? '-'));
    if (!vip) throw new Error('no row for the VIP player');
    expect(within(vip).getByRole('img', { name: 'Verified' })).toBeTruthy();
  });

  it('marks the signed-in player and lists the same rows for phones', async () => {
    const { players, categoryID } = await drawnGame();
    const me = players[1];
    if (!me) throw new Error('no player');
    localStorage.setItem('authToken', me.token);
    const user = (await (
      await fetch(`${server().origin}/api/v1/user`, {
        headers: { authorization: `Bearer ${me.token}` },
      })
    ).json()) as { data: Parameters<typeof setUser>[0] };
    setUser(user.data);

    renderPage({ categoryID });

    const list = await screen.findByRole('list', { name: 'Top players' });
    const mine = within(list)
      .getAllByRole('listitem')
      .find((item) => within(item).queryByText(`plucker_${me.user.handle}`));
    if (!mine) throw new Error('my row is missing');
    expect(within(mine).getByText('You')).toBeTruthy();
    expect(within(mine).getByText('Level 2')).toBeTruthy();
  });

  it("toasts the server's message when the leaderboard cannot be loaded", async () => {
    const fake = await startFakeServer((_request, response) =>
      sendJson(response, 500, { message: 'Leaderboard is resting' }),
    );
    setPageUrl(`${fake.origin}/LeaderBoard`);
    localStorage.setItem('authToken', 'token-abc');
    renderPage();

    expect(await screen.findByText('Leaderboard is resting')).toBeTruthy();
    expect(fake.requests.map((request) => request.url).sort()).toEqual([
      '/api/v1/leaderboard/me',
      '/api/v1/leaderboard?pageSize=10',
    ]);
    expect(screen.getByText('We could not load the leaderboard')).toBeTruthy();
  });
});
