import { PAGE_TEXTS } from '@shared/messages.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from '@web/lib/toast.tsx';
import { beforeEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { sendJson, startFakeServer } from '../../../test/fake-server.ts';
import { adminToken, createGame, playAs, signInPlayer, uniqueTitle } from '../../../test/games.ts';
import { HomePage } from './HomePage.tsx';

const server = testServerPerFile();

// A real server answers: give first loads (cold database, busy CI) more than the default 1 s.
configure({ asyncUtilTimeout: 5000 });

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <HomePage />
      <Toaster />
    </QueryClientProvider>,
  );
}

const tab = (name: string) => screen.getByRole('tab', { name });

describe('HomePage', () => {
  beforeEach(() => {
    setPageUrl(`${server().origin}/Home`);
  });

  it('shows the hero, the welcome text, the three tabs and Know More', async () => {
    await signInPlayer(server());
    renderPage();

    expect(screen.getByText(PAGE_TEXTS.tagline)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'FEED YOUR WALLET' })).toBeTruthy();
    expect(screen.getByText('PLAY.PLUCK.PROSPER')).toBeTruthy();
    expect(screen.getByText(PAGE_TEXTS.welcome)).toBeTruthy();
    expect(screen.getAllByRole('tab').map((element) => element.textContent)).toEqual([
      'Trending Games',
      'New Challenges',
      'Highest Payouts',
    ]);
    // Below the fold, in the same chunk as the rest of Home.
    const knowMore = await screen.findByRole('region', { name: 'Know More' });
    expect(
      within(knowMore)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Tournaments', 'VIP', 'Pluckers']);
  });

  it('loads each list behind a spinner and shows its cards, played games marked', async () => {
    const admin = await adminToken(server());
    const title = uniqueTitle('Best suya spot in Abuja');
    // The biggest reward around, so it tops Highest Payouts even on a shared database.
    const game = await createGame(server(), admin, {
      title,
      description: 'Name it.\nDefend it.',
      entryFee: 0,
      reward: 99_000_000,
      maximumPlayers: 20,
    });
    const { token } = await signInPlayer(server());
    await playAs(server(), token, game.id);
    const person = userEvent.setup();

    renderPage();

    expect(screen.getByRole('status').textContent).toContain('Loading Trending Games');
    expect(tab('Trending Games').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(
      tab('Trending Games').id,
    );
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());

    await person.click(tab('Highest Payouts'));
    const heading = await screen.findByRole('heading', { name: `“${title}”` });
    const card = heading.closest('article') as HTMLElement;
    expect(within(card).getByText('FREE')).toBeTruthy();
    expect(within(card).getByText('Played')).toBeTruthy();
    expect(within(card).getByText('19 Pluckers Left')).toBeTruthy();
    expect(within(card).getByText('₦99,000,000')).toBeTruthy();
    expect(within(card).getByText(/Name it\./).textContent).toBe('Name it.\nDefend it.');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(
      tab('Highest Payouts').id,
    );
  });

  it('moves between the lists with the arrow, Home and End keys', async () => {
    const admin = await adminToken(server());
    // Upcoming games are new challenges, but neither trending nor paying out yet.
    const upcoming = uniqueTitle('Upcoming: your dream Lagos weekend');
    await createGame(server(), admin, {
      title: upcoming,
      startsAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    await signInPlayer(server());
    const person = userEvent.setup();
    renderPage();
    await screen.findByRole('tabpanel');

    await person.click(tab('Trending Games'));
    expect(document.activeElement).toBe(tab('Trending Games'));
    expect(screen.queryByRole('heading', { name: `“${upcoming}”` })).toBeNull();

    await person.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tab('New Challenges'));
    expect(tab('New Challenges').getAttribute('aria-selected')).toBe('true');
    expect(tab('Trending Games').getAttribute('tabindex')).toBe('-1');
    const card = (await screen.findByRole('heading', { name: `“${upcoming}”` })).closest(
      'article',
    ) as HTMLElement;
    expect(within(card).getByText('Upcoming')).toBeTruthy();

    await person.keyboard('{End}');
    expect(document.activeElement).toBe(tab('Highest Payouts'));
    await person.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tab('Trending Games'));
    await person.keyboard('{ArrowLeft}');
    expect(tab('Highest Payouts').getAttribute('aria-selected')).toBe('true');
    await person.keyboard('{Home}');
    expect(tab('Trending Games').getAttribute('aria-selected')).toBe('true');
  });

  it('toasts what the transport says when a list fails without a server message', async () => {
    const fake = await startFakeServer((_request, response) => sendJson(response, 502));
    setPageUrl(`${fake.origin}/Home`);
    localStorage.setItem('authToken', 'token-abc');
    renderPage();

    // http.ts rejects with the status text (docs/product.md#errors "otherwise the transport message"), so
    // 'An error occurred.' is only for failures that are not HTTP answers.
    expect(await screen.findByText('Bad Gateway')).toBeTruthy();
    expect(screen.getByText('We could not load these games')).toBeTruthy();
    // Besides the list, Home reads only whether the player is on a break (for its banner).
    expect(
      fake.requests
        .map((request) => request.url)
        .filter((url) => url !== '/api/v1/responsible-play'),
    ).toEqual(['/api/v1/game?gameType=TRENDING']);
  });

  it("toasts the server's message when it gives one, and retries on request", async () => {
    let calls = 0;
    const fake = await startFakeServer((request, response) => {
      if (request.url === '/api/v1/responsible-play') {
        sendJson(response, 200, { data: { exclusion: null } });
        return;
      }
      calls += 1;
      if (calls === 1) sendJson(response, 503, { message: 'Games are being restocked' });
      else sendJson(response, 200, { data: { games: [] } });
    });
    setPageUrl(`${fake.origin}/Home`);
    localStorage.setItem('authToken', 'token-abc');
    const person = userEvent.setup();
    renderPage();

    expect(await screen.findByText('Games are being restocked')).toBeTruthy();
    await person.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No games here yet')).toBeTruthy();
  });

  it('reads a missing data.games as an empty list', async () => {
    const fake = await startFakeServer((_request, response) =>
      sendJson(response, 200, { data: {} }),
    );
    setPageUrl(`${fake.origin}/Home`);
    localStorage.setItem('authToken', 'token-abc');
    renderPage();

    expect(await screen.findByText('No games here yet')).toBeTruthy();
  });
});
