import type { Game } from '@shared/schemas/games.ts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { getSession, setCurrentGame } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { GameCard, GameGrid } from './GameCard.tsx';

function game(overrides: Partial<Game> = {}): Game {
  return {
    id: '6f1c1b8e-5a43-4a0e-9d8e-3f4f3a2b1c0d',
    title: 'What would you buy first with ₦1 million?',
    description: 'No right or wrong.\nTell us in 20 words or fewer.',
    categoryID: null,
    entryFee: 100,
    reward: 2500,
    maximumPlayers: 50,
    playerCount: 10,
    status: 'ONGOING',
    isTournament: false,
    hasPlayedGame: false,
    startsAt: null,
    endsAt: null,
    commitment: 'a'.repeat(64),
    createdAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

function card() {
  return screen.getByRole('article');
}

afterEach(() => setCurrentGame(null));

describe('GameCard (docs/product.md#screens game card)', () => {
  it('shows the title in quotes, the status badge, entry fee, reward and places left', () => {
    render(<GameCard game={game()} />);
    const article = card();
    expect(
      within(article).getByRole('heading', { name: '“What would you buy first with ₦1 million?”' }),
    ).toBeTruthy();
    expect(within(article).getByText('Live')).toBeTruthy();
    expect(within(article).getByText('₦100')).toBeTruthy();
    expect(within(article).getByText('₦2,500')).toBeTruthy();
    expect(within(article).getByText('40 Pluckers Left')).toBeTruthy();
    expect(within(article).getByRole('button', { name: 'Pluck in' })).toBeTruthy();
    // Paid games carry no FREE badge; unplayed games no Played marker; not a tournament.
    expect(within(article).queryByText('FREE')).toBeNull();
    expect(within(article).queryByText('Played')).toBeNull();
    expect(within(article).queryByText('Tournament')).toBeNull();
  });

  it('keeps the line breaks of the description', () => {
    render(<GameCard game={game()} />);
    const description = within(card()).getByText(/No right or wrong\./);
    expect(description.textContent).toBe('No right or wrong.\nTell us in 20 words or fewer.');
    expect(description.className).toContain('whitespace-pre-line');
  });

  it('shows a green FREE badge when there is no entry fee (0 or missing)', () => {
    const { rerender } = render(<GameCard game={game({ entryFee: 0 })} />);
    const free = within(card()).getByText('FREE');
    expect(free.className).toContain('bg-vip');
    rerender(<GameCard game={game({ entryFee: undefined as unknown as number })} />);
    expect(within(card()).getByText('FREE')).toBeTruthy();
  });

  it('says Free for the entry fee of a free game, never ₦0', () => {
    render(<GameCard game={game({ entryFee: 0 })} />);
    const fee = within(card()).getByText('Entry fee').nextElementSibling;
    expect(fee?.textContent).toBe('Free');
    expect(card().textContent).not.toContain('₦0');
  });

  it('marks played games and tournaments', () => {
    render(<GameCard game={game({ hasPlayedGame: true, isTournament: true })} />);
    expect(within(card()).getByText('Played')).toBeTruthy();
    expect(within(card()).getByText('Tournament')).toBeTruthy();
  });

  it.each([
    [50, 49, '1 Plucker Left'],
    [50, 48, '2 Pluckers Left'],
    [50, 50, '0 Plucker Left'],
  ])('max %i, %i players: "%s"', (maximumPlayers, playerCount, text) => {
    render(<GameCard game={game({ maximumPlayers, playerCount })} />);
    expect(within(card()).getByText(text)).toBeTruthy();
  });

  it.each([
    ['UPCOMING', 'Upcoming'],
    ['CLOSED', 'Closed'],
    ['COMPLETED', 'Completed'],
    ['CANCELLED', 'Cancelled'],
  ] as const)('labels status %s as %s', (status, label) => {
    render(<GameCard game={game({ status })} />);
    expect(within(card()).getByText(label)).toBeTruthy();
  });

  it('Pluck in keeps the game, replaces the history entry with /GameDetails and scrolls up', async () => {
    const person = userEvent.setup();
    window.history.replaceState(null, '', '/Home');
    const lengthBefore = window.history.length;
    window.scrollTo(0, 500);
    const played = game();
    render(<GameCard game={played} />);

    await person.click(screen.getByRole('button', { name: 'Pluck in' }));

    expect(getSession().currentGame).toEqual(played);
    expect(window.location.pathname).toBe('/GameDetails');
    expect(new URLSearchParams(window.location.search).get('id')).toBe(played.id);
    expect(window.history.length).toBe(lengthBefore);
    expect(window.scrollY).toBe(0);
  });
});

describe('GameGrid', () => {
  const props = {
    loadingLabel: 'Loading Trending Games',
    emptyTitle: 'No games here yet',
    emptyText: 'New games drop every day.',
  };

  it('shows a spinner while loading', () => {
    render(<GameGrid games={undefined} loading {...props} />);
    expect(screen.getByRole('status').textContent).toContain('Loading Trending Games');
  });

  it('shows the empty state when the list is empty', () => {
    render(<GameGrid games={[]} loading={false} {...props} />);
    expect(screen.getByText('No games here yet')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('lists one card per game', () => {
    render(
      <GameGrid
        games={[game(), game({ id: 'other', title: 'Second' })]}
        loading={false}
        {...props}
      />,
    );
    expect(within(screen.getByRole('list')).getAllByRole('article')).toHaveLength(2);
  });

  it('offers a retry when the list failed to load', async () => {
    const person = userEvent.setup();
    let retried = 0;
    render(
      <GameGrid
        games={undefined}
        loading={false}
        failed
        onRetry={() => {
          retried += 1;
        }}
        {...props}
      />,
    );
    expect(screen.getByText('We could not load these games')).toBeTruthy();
    await person.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retried).toBe(1);
  });
});
