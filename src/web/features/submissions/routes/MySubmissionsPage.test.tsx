import { formatDate } from '@shared/date.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from '@web/lib/toast.tsx';
import { beforeEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { sendJson, startFakeServer } from '../../../test/fake-server.ts';
import {
  adminToken,
  cancelGame,
  createGame,
  fillGame,
  playAs,
  signInPlayer,
  signInVipPlayer,
  uniqueTitle,
  waitForStatus,
} from '../../../test/games.ts';
import { MySubmissionsPage } from './MySubmissionsPage.tsx';

const server = testServerPerFile({ JOB_POLL_MS: '100' });

// A real server answers: give first loads (cold database, busy CI) more than the default 1 s.
configure({ asyncUtilTimeout: 5000 });

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MySubmissionsPage />
      <Toaster />
    </QueryClientProvider>,
  );
}

async function cardFor(title: string): Promise<HTMLElement> {
  const heading = await screen.findByRole('heading', { name: `“${title}”` });
  return heading.closest('article') as HTMLElement;
}

describe('MySubmissionsPage', () => {
  beforeEach(() => setPageUrl(`${server().origin}/MySubmissions`));

  it('shows the empty state to a player who has not played', async () => {
    await signInPlayer(server());
    renderPage();
    expect(await screen.findByText('No submissions yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Find a game' }).getAttribute('href')).toBe('/Home');
  });

  it('lists each answer with amounts, date, Tournament marker and pending review', async () => {
    const admin = await adminToken(server());
    const paid = await createGame(server(), admin, {
      title: uniqueTitle('Best street food'),
      entryFee: 100,
      reward: 400,
    });
    const tournament = await createGame(server(), admin, {
      title: uniqueTitle('Tournament round one'),
      reward: 5000,
      isTournament: true,
    });
    const { token } = await signInVipPlayer(server(), 1000);
    const first = await playAs(server(), token, paid.id, 'Boli and groundnut');
    await playAs(server(), token, tournament.id, 'A very creative answer');
    const played = (await (
      await fetch(`${server().origin}/api/v1/game/played`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { data: Array<{ createdAt: string; game: { id: string } }> };

    renderPage();

    const card = await cardFor(paid.title);
    expect(within(card).getByText('Boli and groundnut')).toBeTruthy();
    expect(within(card).getByText('Pending review')).toBeTruthy();
    expect(within(card).getByText('₦100')).toBeTruthy();
    expect(within(card).getByText('₦400')).toBeTruthy();
    expect(within(card).queryByText('Tournament')).toBeNull();
    const createdAt = played.data.find((entry) => entry.game.id === paid.id)?.createdAt ?? '';
    expect(within(card).getByText(formatDate(createdAt))).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'View game' }).getAttribute('href')).toBe(
      `/GameDetails?id=${first.gameID}`,
    );

    const tournamentCard = await cardFor(tournament.title);
    expect(within(tournamentCard).getByText('Tournament')).toBeTruthy();
    // A free game says so, rather than "₦0".
    expect(within(tournamentCard).getByText('Free')).toBeTruthy();
    expect(screen.getByText('2 answers · 2 pending review')).toBeTruthy();
  });

  it('shows WON or LOST once the draw has run', async () => {
    const admin = await adminToken(server());
    const game = await createGame(server(), admin, {
      title: uniqueTitle('Draw me'),
      maximumPlayers: 5,
      reward: 1000,
    });
    const { user, token } = await signInPlayer(server());
    await playAs(server(), token, game.id, 'Pick me please');
    await fillGame(server(), game.id, 4);
    await waitForStatus(server(), token, game.id, 'COMPLETED');
    const proof = (await (
      await fetch(`${server().origin}/api/v1/game/${game.id}/draw`)
    ).json()) as {
      data: { winnerUsernames: string[] };
    };
    const won = proof.data.winnerUsernames.includes(`plucker_${user.handle}`);

    renderPage();

    const card = await cardFor(game.title);
    expect(within(card).getByText(won ? 'WON' : 'LOST')).toBeTruthy();
    expect(within(card).queryByText('Pending review')).toBeNull();
    // Straight to the proof, which a phone shows far below the top of the game page.
    expect(within(card).getByRole('link', { name: 'Check the draw' }).getAttribute('href')).toBe(
      `/GameDetails?id=${game.id}#fair-draw`,
    );
  });

  it('a cancelled game reads Refunded: the entry fee came back and there is nothing to win', async () => {
    const admin = await adminToken(server());
    const game = await createGame(server(), admin, {
      title: uniqueTitle('Called off'),
      entryFee: 100,
      reward: 500,
    });
    const { token } = await signInPlayer(server(), 1000);
    await playAs(server(), token, game.id, 'Too early');
    await cancelGame(server(), admin, game.id);

    renderPage();

    const card = await cardFor(game.title);
    expect(within(card).getByText('Status:').parentElement?.textContent).toBe('Status: Refunded');
    expect(card.querySelector('dl')?.textContent).toBe(
      'Entry fee refunded₦100Amount to winNothing, no draw',
    );
    expect(within(card).queryByText('₦500')).toBeNull();
  });

  it("toasts the server's message when submissions cannot be loaded", async () => {
    const fake = await startFakeServer((_request, response) =>
      sendJson(response, 500, { message: 'Submissions are unavailable' }),
    );
    setPageUrl(`${fake.origin}/MySubmissions`);
    localStorage.setItem('authToken', 'token-abc');
    const person = userEvent.setup();
    renderPage();

    expect(await screen.findByText('Submissions are unavailable')).toBeTruthy();
    expect(screen.getByText('We could not load your submissions')).toBeTruthy();
    await person.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(fake.requests.map((request) => request.url)).toEqual([
        '/api/v1/game/played',
        '/api/v1/game/played',
      ]),
    );
  });
});
