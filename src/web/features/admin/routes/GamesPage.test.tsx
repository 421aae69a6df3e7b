import { adminGameBodySchema } from '@shared/schemas/admin.ts';
import type { Game } from '@shared/schemas/games.ts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { issuesToErrors } from '@web/lib/schema-form.ts';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { api, renderConsole, signInAdmin } from '../test-helpers.tsx';

const server = testServerPerFile();

afterEach(() => {
  setUser(null);
  setSettings(null);
});

let sequence = 0;
function uniqueTitle(prefix: string) {
  sequence += 1;
  return `${prefix} ${Date.now().toString(36)}${sequence}`;
}

async function createGame(token: string, title: string, extra: Record<string, unknown> = {}) {
  const result = await api<{ data: Game }>(server(), token, 'POST', '/admin/games', {
    title,
    reward: 500,
    maximumPlayers: 10,
    ...extra,
  });
  expect(result.status).toBe(201);
  return result.body.data;
}

function field(name: string) {
  return screen.getByLabelText(name) as HTMLInputElement;
}

describe('Games', () => {
  it('shows the shared schema’s messages and keeps the form on screen until they are fixed', async () => {
    await signInAdmin(server());
    const person = userEvent.setup();
    renderConsole(server(), '/admin/games/new');

    await screen.findByRole('heading', { name: 'New game', level: 1 });
    await person.type(field('Title'), 'Hi');
    await person.clear(field('Maximum players'));
    await person.type(field('Maximum players'), '3');
    await person.type(field('Opens at (optional)'), '2031-05-10T12:00');
    await person.type(field('Closes at (optional)'), '2031-05-10T09:00');
    await person.click(screen.getByRole('button', { name: 'Create game' }));

    // Exactly what the server's schema says about the same input.
    const expected = adminGameBodySchema.safeParse({
      title: 'Hi',
      description: '',
      categoryID: null,
      entryFee: 0,
      reward: undefined,
      maximumPlayers: 3,
      isTournament: false,
      startsAt: new Date('2031-05-10T12:00').toISOString(),
      endsAt: new Date('2031-05-10T09:00').toISOString(),
    });
    expect(expected.success).toBe(false);
    const messages = expected.success ? {} : issuesToErrors(expected.error);
    expect(messages).toMatchObject({
      title: 'Title must be at least 3 characters',
      reward: 'Reward must be a number',
      maximumPlayers: 'A game needs room for at least 5 players',
    });
    for (const message of Object.values(messages)) {
      expect(await screen.findByText(message as string)).toBeTruthy();
    }
    expect(field('Title').getAttribute('aria-invalid')).toBe('true');
    // The first invalid field has the focus.
    expect(document.activeElement).toBe(field('Title'));

    // Fixing a field clears its message at once.
    await person.type(field('Title'), ' there');
    await waitFor(() =>
      expect(screen.queryByText('Title must be at least 3 characters')).toBeNull(),
    );
    expect(window.location.pathname).toBe('/admin/games/new');
  });

  it('previews the player card while typing, then lists the created game', async () => {
    await signInAdmin(server());
    const person = userEvent.setup();
    renderConsole(server(), '/admin/games/new');
    const title = uniqueTitle('Best suya spot in Abuja');

    await screen.findByRole('heading', { name: 'New game', level: 1 });
    const preview = screen.getByTestId('game-preview');
    expect(within(preview).getByText('FREE')).toBeTruthy();
    expect(within(preview).getByText('Live')).toBeTruthy();

    await person.type(field('Title'), title);
    await person.type(field('Description (optional)'), 'Line one{Enter}Line two');
    await person.clear(field('Entry fee (₦)'));
    await person.type(field('Entry fee (₦)'), '200');
    await person.type(field('Reward per winner (₦)'), '1500');
    await person.clear(field('Maximum players'));
    await person.type(field('Maximum players'), '20');
    await person.click(screen.getByLabelText('Tournament'));

    expect(within(preview).getByText(`“${title}”`)).toBeTruthy();
    expect(within(preview).getByText(/Line one\s+Line two/).className).toContain(
      'whitespace-pre-line',
    );
    expect(within(preview).queryByText('FREE')).toBeNull();
    expect(within(preview).getByText('Tournament')).toBeTruthy();
    expect(within(preview).getByText('₦200')).toBeTruthy();
    expect(within(preview).getByText('₦1,500')).toBeTruthy();
    expect(within(preview).getByText('20 Pluckers Left')).toBeTruthy();

    await person.click(screen.getByRole('button', { name: 'Create game' }));

    expect(await screen.findByText('Game created')).toBeTruthy();
    await screen.findByRole('heading', { name: 'Games', level: 1 });
    expect(window.location.pathname).toBe('/admin/games');
    const link = await screen.findByRole('link', { name: title });
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getByText('₦200')).toBeTruthy();
    expect(within(row).getByText('0 / 20')).toBeTruthy();
  });

  it('filters by status and opens a game to close it after confirming', async () => {
    const { token } = await signInAdmin(server());
    const title = uniqueTitle('Close me');
    const game = await createGame(token, title);
    const person = userEvent.setup();
    renderConsole(server(), '/admin/games');

    await screen.findByRole('link', { name: title });
    await person.selectOptions(screen.getByLabelText('Status'), 'CANCELLED');
    await waitFor(() => expect(screen.queryByRole('link', { name: title })).toBeNull());
    expect(window.location.search).toBe('?status=CANCELLED');
    await person.selectOptions(screen.getByLabelText('Status'), 'ONGOING');
    await person.click(await screen.findByRole('link', { name: title }));

    await screen.findByRole('heading', { name: title, level: 1 });
    expect(window.location.pathname).toBe(`/admin/games/${game.id}`);
    expect(screen.getByText(game.commitment)).toBeTruthy();
    await person.click(screen.getByRole('button', { name: 'Close now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close this game now?' });
    // Backing out changes nothing.
    await person.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await person.click(screen.getByRole('button', { name: 'Close now' }));
    await person.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Close game' }),
    );

    expect(await screen.findByText('Game closed. The draw runs in a moment.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Close now' })).toBeNull());
  });

  it('cancels a game only with a reason, and says how many were refunded', async () => {
    const { token } = await signInAdmin(server());
    const title = uniqueTitle('Cancel me');
    const game = await createGame(token, title);
    const person = userEvent.setup();
    renderConsole(server(), `/admin/games/${game.id}`);

    await person.click(await screen.findByRole('button', { name: 'Cancel game' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this game?' });
    await person.type(within(dialog).getByLabelText('Reason'), 'no');
    await person.click(within(dialog).getByRole('button', { name: 'Cancel game and refund' }));
    expect(within(dialog).getByText('Give a reason of at least 3 characters')).toBeTruthy();

    await person.type(within(dialog).getByLabelText('Reason'), ' players turned up');
    await person.click(within(dialog).getByRole('button', { name: 'Cancel game and refund' }));

    expect(
      await screen.findByText('Game cancelled; 0 player(s) refunded and notified'),
    ).toBeTruthy();
    expect(
      await screen.findByText(/the game was cancelled and every entry fee refunded/),
    ).toBeTruthy();
  });

  it('edits an empty game, and shows the server’s 409 once someone has played', async () => {
    const { token } = await signInAdmin(server());
    const title = uniqueTitle('Edit me');
    const game = await createGame(token, title);
    const person = userEvent.setup();
    renderConsole(server(), `/admin/games/${game.id}`);

    await person.click(await screen.findByRole('link', { name: 'Edit' }));
    await screen.findByRole('heading', { name: 'Edit game', level: 1 });
    expect(field('Title').value).toBe(title);
    await person.clear(field('Reward per winner (₦)'));
    await person.type(field('Reward per winner (₦)'), '750');
    await person.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Game updated')).toBeTruthy();
    await screen.findByRole('heading', { name: title, level: 1 });
    expect(screen.getAllByText('₦750').length).toBeGreaterThan(0);

    // The form is open while a player plucks in: the server refuses the edit.
    await person.click(screen.getByRole('link', { name: 'Edit' }));
    await screen.findByRole('heading', { name: 'Edit game', level: 1 });
    const player = await server().createUser();
    const played = await api(server(), await server().tokenFor(player), 'POST', '/game/play', {
      gameID: game.id,
      submittedAnswer: 'pepper soup',
    });
    expect(played.status).toBe(201);
    await person.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(
      await screen.findByText(
        'This game already has players (or has ended) and can no longer be edited',
      ),
    ).toBeTruthy();
    expect(window.location.pathname).toBe(`/admin/games/${game.id}/edit`);

    // Back on the game: no Edit any more, and the answer is listed.
    await person.click(screen.getByRole('link', { name: '← Back to the game' }));
    expect(await screen.findByText('pepper soup')).toBeTruthy();
    expect(await screen.findByText(/the terms are fixed/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
  });

  it("numbers a game's entries from 1, says Free for a free entry and At once on both screens", async () => {
    const { token } = await signInAdmin(server());
    // An answer in another game first, so this game's entry ids do not start at 1.
    const earlier = await createGame(token, uniqueTitle('Earlier game'));
    const play = async (gameID: string, submittedAnswer: string) => {
      const player = await server().createUser();
      const played = await api(server(), await server().tokenFor(player), 'POST', '/game/play', {
        gameID,
        submittedAnswer,
      });
      expect(played.status).toBe(201);
    };
    await play(earlier.id, 'jollof');
    const title = uniqueTitle('Free to enter');
    const game = await createGame(token, title);
    await play(game.id, 'suya');
    await play(game.id, 'puff-puff');
    const person = userEvent.setup();
    renderConsole(server(), '/admin/games');

    const link = await screen.findByRole('link', { name: title });
    expect(within(link.closest('tr') as HTMLElement).getByText('At once')).toBeTruthy();
    await person.click(link);

    await screen.findByRole('heading', { name: title, level: 1 });
    expect(screen.getByText('Opens', { selector: 'dt' }).nextElementSibling?.textContent).toBe(
      'At once',
    );
    const entries = await screen.findByRole('region', { name: 'Entries' });
    await within(entries).findByText('puff-puff');
    const rows = within(entries).getAllByRole('row').slice(1);
    const cells = (column: number) =>
      rows.map((row) => within(row).getAllByRole('cell')[column]?.textContent);
    expect(cells(0).map((text) => text?.match(/^#\d+/)?.[0])).toEqual(['#1', '#2']);
    // The entry's own id stays beside its number, for the audit log and support.
    for (const text of cells(0)) expect(text).toMatch(/^#\d+id \d+$/);
    expect(Number(cells(0)[0]?.match(/id (\d+)$/)?.[1])).toBeGreaterThan(1);
    expect(cells(3)).toEqual(['Free', 'Free']);
  });
});
