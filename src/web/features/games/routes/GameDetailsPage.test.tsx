import { ERROR_MESSAGES, PAGE_TEXTS, VALIDATION_MESSAGES } from '@shared/messages.ts';
import type { Game } from '@shared/schemas/games.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AGE_GATE_TEXTS } from '@web/components/ui/AgeGate.tsx';
import { fetchUser, getSession, setCurrentGame, setUser } from '@web/lib/session.ts';
import { Toaster } from '@web/lib/toast.tsx';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import {
  adminToken,
  cancelGame,
  closeGame,
  createGame,
  editGame,
  fillGame,
  playAs,
  signInPlayer,
  startProxy,
  uniqueTitle,
  waitForStatus,
} from '../../../test/games.ts';
import { GameDetailsPage } from './GameDetailsPage.tsx';

// The draw runs on the server's own job worker, as in production.
const server = testServerPerFile({ JOB_POLL_MS: '100' });

// A real server answers: give first loads (cold database, busy CI) more than the default 1 s.
configure({ asyncUtilTimeout: 5000 });

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={client}>
      <GameDetailsPage />
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...view, client };
}

/** A signed-in player whose session (balance included) is loaded as the app loads it. */
async function player(balanceNaira = 0) {
  const signedIn = await signInPlayer(server(), balanceNaira);
  setUser(await fetchUser());
  return signedIn;
}

async function paidGame(overrides: Partial<Parameters<typeof createGame>[2]> = {}) {
  const admin = await adminToken(server());
  const game = await createGame(server(), admin, {
    title: uniqueTitle('Describe jollof rice'),
    description: 'Make us hungry.\nShort and sweet.',
    entryFee: 100,
    reward: 400,
    maximumPlayers: 30,
    ...overrides,
  });
  return { admin, game };
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

function openPageFor(game: Game, origin = server().origin) {
  setPageUrl(`${origin}/GameDetails?id=${game.id}`);
  return renderPage();
}

afterEach(() => {
  setCurrentGame(null);
  setUser(null);
});

describe('GameDetailsPage', () => {
  beforeEach(() => setPageUrl(`${server().origin}/GameDetails`));

  it('redirects to / when no game is selected and no id is given', async () => {
    await player();
    renderPage();
    await waitFor(() => expect(window.location.pathname).toBe('/'));
  });

  it('opens a shared link (?id=) with every detail of docs/product.md#screens and the fairness commitment', async () => {
    await player(1000);
    const { game } = await paidGame();
    await fillGame(server(), game.id, 3);

    openPageFor(game);

    const title = await screen.findByRole('heading', { level: 1, name: `“${game.title}”` });
    const card = title.closest('article') as HTMLElement;
    expect(within(card).getByText('Live')).toBeTruthy();
    expect(within(card).queryByText('FREE')).toBeNull();
    expect(within(card).getByText(/Make us hungry\./).textContent).toBe(
      'Make us hungry.\nShort and sweet.',
    );
    expect(within(card).getByText('₦100')).toBeTruthy();
    // The spec's N+ while places are open, with how many there are.
    const players = within(card).getByText('Players').closest('div') as HTMLElement;
    expect(players.textContent).toBe('Players3+ of 30');
    expect(within(card).getByText('₦400')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Submit Your Answer' })).toBeTruthy();

    const fairness = screen.getByRole('region', { name: 'Fair draw' });
    expect(
      within(fairness).getByText(`${game.commitment.slice(0, 10)}…${game.commitment.slice(-6)}`),
    ).toBeTruthy();
    expect(within(fairness).getByText(game.commitment)).toBeTruthy();
  });

  it('shows the game kept by Pluck in at once, then the fresh copy', async () => {
    await player();
    const { game } = await paidGame({ entryFee: 0, isTournament: true });
    setCurrentGame({ ...game, title: 'Old title from the list' });
    setPageUrl(`${server().origin}/GameDetails`);
    renderPage();

    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('“Old title from the list”');
    expect(await screen.findByRole('heading', { level: 1, name: `“${game.title}”` })).toBeTruthy();
    expect(screen.getByText('FREE')).toBeTruthy();
    expect(screen.getByText('Tournament')).toBeTruthy();
  });

  it('answers: the word counter blocks empty and 21-word answers; success shows the result', async () => {
    const { user } = await player(1000);
    const { game } = await paidGame();
    await fillGame(server(), game.id, 2);
    const person = userEvent.setup();
    openPageFor(game);

    await person.click(await screen.findByRole('button', { name: 'Submit Your Answer' }));
    const dialog = screen.getByRole('dialog', { name: `“${game.title}”` });
    const field = within(dialog).getByPlaceholderText(PAGE_TEXTS.answerPlaceholder);
    expect(field.getAttribute('rows')).toBe('4');
    expect(document.activeElement).toBe(field);
    expect(within(dialog).getByText(VALIDATION_MESSAGES.answerWarning)).toBeTruthy();
    const submit = within(dialog).getByRole('button', { name: 'Submit' }) as HTMLButtonElement;
    // What Submit takes is said before it is pressed, and read out with the button.
    const fee = within(dialog).getByText(/^Submitting pays the/);
    expect(fee.textContent).toBe('Submitting pays the ₦100 entry fee from your wallet.');
    expect(submit.getAttribute('aria-describedby')?.split(' ')).toContain(fee.id);
    expect(within(dialog).getByText('0/20 words')).toBeTruthy();
    expect(submit.disabled).toBe(true);

    await person.type(field, words(21));
    expect(within(dialog).getByText('21/20 words')).toBeTruthy();
    expect(within(dialog).getByText(/Too many words/)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(submit.disabled).toBe(true);

    await person.clear(field);
    await person.type(field, 'Smoky party jollof with fried plantain');
    expect(within(dialog).getByText('6/20 words')).toBeTruthy();
    expect(submit.disabled).toBe(false);
    await person.click(submit);

    expect(await within(dialog).findByText(PAGE_TEXTS.answerSubmitted)).toBeTruthy();
    const terms = within(dialog)
      .getAllByRole('term')
      .map((term) => `${term.textContent}=${term.nextElementSibling?.textContent}`);
    expect(terms).toEqual(['Seed=₦100', 'Potential payout=₦400', 'Players=3']);
    expect(within(dialog).getByText(/notifications/)).toBeTruthy();
    expect(
      within(dialog).getByRole('link', { name: 'View Game Status' }).getAttribute('href'),
    ).toBe('/mysubmissions');
    expect(within(dialog).getByRole('link', { name: 'Go Back to Home' }).getAttribute('href')).toBe(
      '/Home',
    );

    // The nav balance drops by the entry fee; the answer is locked in.
    expect(getSession().user?.accountBalance).toBe(900);
    expect(getSession().user?.id).toBe(user.id);
    expect(sessionStorage.getItem(`answerDraft:${game.id}`)).toBeNull();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'View game status', hidden: true })).toBeTruthy(),
    );
  });

  it('charges nothing when an operator changed the fee after it was shown, and shows the new fee', async () => {
    await player(1000);
    const { admin, game } = await paidGame();
    const person = userEvent.setup();
    openPageFor(game);

    await person.click(await screen.findByRole('button', { name: 'Submit Your Answer' }));
    const dialog = screen.getByRole('dialog', { name: `“${game.title}”` });
    await person.type(
      within(dialog).getByPlaceholderText(PAGE_TEXTS.answerPlaceholder),
      'Party jollof, always',
    );
    await editGame(server(), admin, game, { entryFee: 150 });
    await person.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect(
      await screen.findByText(
        'The entry fee for this game has changed to ₦150. Nothing was charged: check the game and answer again.',
      ),
    ).toBeTruthy();
    // Back to the form with the answer kept; the page shows the fee the game now has.
    expect(
      (within(dialog).getByPlaceholderText(PAGE_TEXTS.answerPlaceholder) as HTMLTextAreaElement)
        .value,
    ).toBe('Party jollof, always');
    const card = screen
      .getByRole('heading', { level: 1, name: `“${game.title}”` })
      .closest('article') as HTMLElement;
    await waitFor(() => expect(within(card).getByText('₦150')).toBeTruthy());
    expect(getSession().user?.accountBalance).toBe(1000);
  });

  it('asks a player who never confirmed 18+ (Google sign-up) once, then opens the answer', async () => {
    const signedIn = await server().createUser({ ageConfirmedAt: null });
    localStorage.setItem('authToken', await server().tokenFor(signedIn));
    setUser(await fetchUser());
    const { game } = await paidGame({ entryFee: 0 });
    const person = userEvent.setup();
    openPageFor(game);

    await person.click(await screen.findByRole('button', { name: 'Submit Your Answer' }));
    const ask = screen.getByRole('dialog', { name: AGE_GATE_TEXTS.title });
    expect(within(ask).getByText(AGE_GATE_TEXTS.description)).toBeTruthy();
    expect(within(ask).getByRole('link', { name: 'terms' }).getAttribute('href')).toBe('/Terms');
    const box = within(ask).getByRole('checkbox', { name: AGE_GATE_TEXTS.checkbox });
    const confirm = within(ask).getByRole('button', { name: 'Confirm and continue' });

    await person.click(confirm);
    expect(within(ask).getByRole('alert').textContent).toBe(AGE_GATE_TEXTS.unticked);
    expect(document.activeElement).toBe(box);
    expect(screen.queryByRole('dialog', { name: `“${game.title}”` })).toBeNull();

    await person.keyboard(' ');
    await person.click(confirm);
    const answer = await screen.findByRole('dialog', { name: `“${game.title}”` });
    expect(within(answer).getByRole('textbox')).toBeTruthy();
    expect(getSession().user?.ageConfirmed).toBe(true);
    expect((await fetchUser()).ageConfirmed).toBe(true);

    // Asked once: closing and pressing again goes straight to the answer.
    await person.click(within(answer).getByRole('button', { name: 'Close' }));
    await person.click(screen.getByRole('button', { name: 'Submit Your Answer' }));
    expect(screen.getByRole('dialog', { name: `“${game.title}”` })).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: AGE_GATE_TEXTS.title })).toBeNull();
  });

  it('shows the LOADING step while the answer travels', async () => {
    await player(1000);
    const { game } = await paidGame({ entryFee: 0 });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const proxy = await startProxy(server(), {
      hold: (request) => (request.url === '/api/v1/game/play' ? released : undefined),
    });
    const person = userEvent.setup();
    openPageFor(game, proxy.origin);

    await person.click(await screen.findByRole('button', { name: 'Submit Your Answer' }));
    const dialog = screen.getByRole('dialog');
    await person.type(within(dialog).getByRole('textbox'), 'Pepper soup on a rainy day');
    await person.click(within(dialog).getByRole('button', { name: 'Submit' }));

    const loading = await within(dialog).findByText(PAGE_TEXTS.answerSending);
    expect(loading.closest('[aria-live]')).toBeTruthy();
    // Nothing may interrupt the send: no close button while loading.
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();

    act(() => release());
    expect(await within(dialog).findByText(PAGE_TEXTS.answerSubmitted)).toBeTruthy();
    // A free game's seed says Free, as its card does, not ₦0.
    expect(within(dialog).getByText('Free')).toBeTruthy();
  });

  it("returns to the form with the server's message when the play is refused", async () => {
    await player(1000);
    const { admin, game } = await paidGame();
    const person = userEvent.setup();
    openPageFor(game);

    await person.click(await screen.findByRole('button', { name: 'Submit Your Answer' }));
    const dialog = screen.getByRole('dialog');
    await person.type(within(dialog).getByRole('textbox'), 'Too late for this one');
    await closeGame(server(), admin, game.id);
    await person.click(within(dialog).getByRole('button', { name: 'Submit' }));

    expect(await screen.findByText('This game is closed to new answers')).toBeTruthy();
    const field = within(dialog).getByRole('textbox') as HTMLTextAreaElement;
    expect(field.value).toBe('Too late for this one');
    expect(getSession().user?.accountBalance).toBe(1000);
  });

  it('without a server message, shows what the transport says (docs/product.md#errors) and keeps the form', async () => {
    await player(1000);
    const { game } = await paidGame();
    const proxy = await startProxy(server(), {
      rewrite: (request, answer) =>
        request.url === '/api/v1/game/play' ? { status: 502, body: '' } : answer,
    });
    const person = userEvent.setup();
    openPageFor(game, proxy.origin);

    await person.click(await screen.findByRole('button', { name: 'Submit Your Answer' }));
    const dialog = screen.getByRole('dialog');
    await person.type(within(dialog).getByRole('textbox'), 'Moi moi');
    await person.click(within(dialog).getByRole('button', { name: 'Submit' }));

    // http.ts rejects with the status text here, so the screen's own fallback
    // ('Something went wrong playing game, please try again') is for non-HTTP failures only.
    expect(await screen.findByText('Bad Gateway')).toBeTruthy();
    expect(screen.queryByText(ERROR_MESSAGES.playGame)).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeTruthy();
  });

  it('keeps the typed answer across a reload until it is sent', async () => {
    await player(1000);
    const { game } = await paidGame();
    const person = userEvent.setup();
    const first = openPageFor(game);
    await person.click(await screen.findByRole('button', { name: 'Submit Your Answer' }));
    await person.type(within(screen.getByRole('dialog')).getByRole('textbox'), 'Agege bread');
    first.unmount();

    openPageFor(game);
    await person.click(await screen.findByRole('button', { name: 'Submit Your Answer' }));
    const field = within(screen.getByRole('dialog')).getByRole('textbox') as HTMLTextAreaElement;
    expect(field.value).toBe('Agege bread');
    expect(within(screen.getByRole('dialog')).getByText('2/20 words')).toBeTruthy();
  });

  it('sends players who already played to their submissions, with the fee marked Paid', async () => {
    const { token } = await player(1000);
    const { game } = await paidGame();
    await playAs(server(), token, game.id);
    openPageFor(game);

    const link = await screen.findByRole('link', { name: 'View game status' });
    expect(link.getAttribute('href')).toBe('/mysubmissions');
    expect(screen.queryByRole('button', { name: 'Submit Your Answer' })).toBeNull();
    expect(screen.getByText('Paid')).toBeTruthy();
  });

  it('a cancelled game the player paid for says the fee was refunded and that nothing is won', async () => {
    const { token } = await player(1000);
    const { admin, game } = await paidGame({ reward: 500 });
    await playAs(server(), token, game.id);
    await cancelGame(server(), admin, game.id);
    openPageFor(game);

    expect(await screen.findByText('This game was cancelled')).toBeTruthy();
    const entryFee = screen.getByText('Entry fee').closest('div') as HTMLElement;
    expect(entryFee.textContent).toBe('Entry fee₦100↩Refunded');
    const reward = screen.getByText('Reward').closest('div') as HTMLElement;
    expect(reward.textContent).toBe('Reward₦500No draw');
    expect(screen.queryByText('Paid')).toBeNull();
  });

  it('lists the winners of a completed game and verifies the draw in the browser', async () => {
    await player();
    const { game } = await paidGame({ entryFee: 0, maximumPlayers: 10 });
    await fillGame(server(), game.id, 10); // the last place closes the game and queues the draw
    await waitForStatus(
      server(),
      localStorage.getItem('authToken') as string,
      game.id,
      'COMPLETED',
    );
    const proof = (await (
      await fetch(`${server().origin}/api/v1/game/${game.id}/draw`)
    ).json()) as {
      data: { winnerUsernames: string[] };
    };
    expect(proof.data.winnerUsernames).toHaveLength(2);

    openPageFor(game);

    const title = await screen.findByRole('heading', { level: 1, name: `“${game.title}”` });
    const card = title.closest('article') as HTMLElement;
    expect(within(card).getByText('Completed')).toBeTruthy();
    // The spec's "N+" whatever the state, with the places beside it.
    const players = within(card).getByText('Players').closest('div') as HTMLElement;
    expect(players.textContent).toBe('Players10+ of 10');
    const fairness = screen.getByRole('region', { name: 'Fair draw' });
    expect(await within(fairness).findByText('Winners (2 of 10 players)')).toBeTruthy();
    for (const username of proof.data.winnerUsernames) {
      expect(within(fairness).getByText(username)).toBeTruthy();
    }
    expect(
      await within(fairness).findByText('Verified: the draw matches.', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByText('This game is closed to new answers.')).toBeTruthy();
  });

  it('opened at the proof (Check the draw), focuses the proof once it has loaded', async () => {
    const { token } = await player();
    const { game } = await paidGame({ entryFee: 0, maximumPlayers: 5 });
    await playAs(server(), token, game.id, 'Where is the proof');
    await fillGame(server(), game.id, 4);
    await waitForStatus(server(), token, game.id, 'COMPLETED');

    setPageUrl(`${server().origin}/GameDetails?id=${game.id}#fair-draw`);
    renderPage();

    const fairness = await screen.findByRole('region', { name: 'Fair draw' });
    await within(fairness).findByText('Winners (1 of 5 players)');
    // The proof's wrapper takes focus, so a screen reader reads on from the proof.
    await waitFor(() => expect(document.activeElement?.id).toBe('fair-draw'));
    expect(document.activeElement?.contains(fairness)).toBe(true);
  });

  it('says clearly when a published draw does not match', async () => {
    await player();
    const { game } = await paidGame({ entryFee: 0, maximumPlayers: 5 });
    await fillGame(server(), game.id, 5);
    await waitForStatus(
      server(),
      localStorage.getItem('authToken') as string,
      game.id,
      'COMPLETED',
    );
    // A proof whose winner was swapped for another entry after the draw.
    const proxy = await startProxy(server(), {
      rewrite: (request, answer) => {
        if (!request.url.endsWith('/draw')) return answer;
        const body = JSON.parse(answer.body) as {
          data: { entries: Array<{ entryId: number }>; winners: number[] };
        };
        const other = body.data.entries.find((entry) => !body.data.winners.includes(entry.entryId));
        body.data.winners = [other?.entryId ?? 0];
        return { status: answer.status, body: JSON.stringify(body) };
      },
    });
    openPageFor(game, proxy.origin);

    expect(
      await screen.findByText('The draw does not match.', {}, { timeout: 10_000 }),
    ).toBeTruthy();
    expect(screen.getByText('The published winners differ from the recomputed ones')).toBeTruthy();
  });
});
