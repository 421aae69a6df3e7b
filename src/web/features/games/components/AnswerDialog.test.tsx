import { PAGE_TEXTS } from '@shared/messages.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fetchUser, getSession, setCurrentGame, setUser } from '@web/lib/session.ts';
import { Toaster } from '@web/lib/toast.tsx';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import {
  adminToken,
  createGame,
  editGame,
  signInPlayer,
  uniqueTitle,
} from '../../../test/games.ts';
import { GameDetailsPage } from '../routes/GameDetailsPage.tsx';

const server = testServerPerFile();
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  setCurrentGame(null);
  setUser(null);
});

describe('AnswerDialog: a fee changed by an operator after it was shown', () => {
  it('says what the fee is now in the dialog, and the next Submit pays it', async () => {
    setPageUrl(`${server().origin}/GameDetails`);
    await signInPlayer(server(), 1000);
    setUser(await fetchUser());
    const admin = await adminToken(server());
    const game = await createGame(server(), admin, {
      title: uniqueTitle('Name a Lagos bus stop'),
      entryFee: 100,
      reward: 400,
      maximumPlayers: 30,
    });
    setPageUrl(`${server().origin}/GameDetails?id=${game.id}`);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <GameDetailsPage />
        <Toaster />
      </QueryClientProvider>,
    );
    const person = userEvent.setup();

    await person.click(await screen.findByRole('button', { name: 'Submit Your Answer' }));
    const dialog = screen.getByRole('dialog', { name: `“${game.title}”` });
    await person.type(within(dialog).getByPlaceholderText(PAGE_TEXTS.answerPlaceholder), 'Ojota');
    expect(within(dialog).queryByText(/Entry fee: now/)).toBeNull();
    expect(within(dialog).getByText(/^Submitting pays the/).textContent).toBe(
      'Submitting pays the ₦100 entry fee from your wallet.',
    );

    await editGame(server(), admin, game, { entryFee: 150 });
    await person.click(within(dialog).getByRole('button', { name: 'Submit' }));

    // Nothing charged; the dialog, still open over the page, tells the new fee.
    const notice = await within(dialog).findByText(/Entry fee: now/);
    expect(notice.textContent).toBe('Entry fee: now ₦150, was ₦100.');
    // One statement of the fee: the change, not the old fee beside it.
    expect(within(dialog).queryByText(/^Submitting pays the/)).toBeNull();
    expect(getSession().user?.accountBalance).toBe(1000);

    await person.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText(PAGE_TEXTS.answerSubmitted)).toBeTruthy();
    expect(getSession().user?.accountBalance).toBe(850);
  });
});

describe('AnswerDialog: a reward changed by an operator after it was shown', () => {
  it('charges nothing for the reward the player did not see, says the new one, and the next Submit plays for it', async () => {
    setPageUrl(`${server().origin}/GameDetails`);
    await signInPlayer(server(), 1000);
    setUser(await fetchUser());
    const admin = await adminToken(server());
    const game = await createGame(server(), admin, {
      title: uniqueTitle('Name a Lagos market'),
      entryFee: 100,
      reward: 300,
      maximumPlayers: 30,
    });
    setPageUrl(`${server().origin}/GameDetails?id=${game.id}`);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <GameDetailsPage />
        <Toaster />
      </QueryClientProvider>,
    );
    const person = userEvent.setup();

    await person.click(await screen.findByRole('button', { name: 'Submit Your Answer' }));
    const dialog = screen.getByRole('dialog', { name: `“${game.title}”` });
    await person.type(within(dialog).getByPlaceholderText(PAGE_TEXTS.answerPlaceholder), 'Balogun');
    expect(within(dialog).queryByText(/Reward: now/)).toBeNull();

    await editGame(server(), admin, game, { reward: 30 });
    await person.click(within(dialog).getByRole('button', { name: 'Submit' }));

    const notice = await within(dialog).findByText(/Reward: now/);
    expect(notice.textContent).toBe('Reward: now ₦30, was ₦300.');
    expect(within(dialog).queryByText(/Entry fee: now/)).toBeNull();
    expect(getSession().user?.accountBalance).toBe(1000);

    await person.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText(PAGE_TEXTS.answerSubmitted)).toBeTruthy();
    expect(getSession().user?.accountBalance).toBe(900);
  });
});

describe('AnswerDialog: after the answer', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'serviceWorker');
    Reflect.deleteProperty(window, 'PushManager');
    Reflect.deleteProperty(window, 'Notification');
  });

  it('offers notifications on this device while the browser has not been asked yet', async () => {
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: {} });
    Object.assign(window, { PushManager: class {}, Notification: { permission: 'default' } });
    setPageUrl(`${server().origin}/GameDetails`);
    await signInPlayer(server(), 0);
    setUser(await fetchUser());
    const game = await createGame(server(), await adminToken(server()), {
      title: uniqueTitle('Name a Nollywood star'),
      entryFee: 0,
      reward: 400,
      maximumPlayers: 30,
    });
    setPageUrl(`${server().origin}/GameDetails?id=${game.id}`);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <GameDetailsPage />
        <Toaster />
      </QueryClientProvider>,
    );
    const person = userEvent.setup();
    await person.click(await screen.findByRole('button', { name: 'Submit Your Answer' }));
    const dialog = screen.getByRole('dialog', { name: `“${game.title}”` });
    expect(
      within(dialog).getByText('This game is free: submitting takes nothing from your wallet.'),
    ).toBeTruthy();
    await person.type(
      within(dialog).getByPlaceholderText(PAGE_TEXTS.answerPlaceholder),
      'Genevieve',
    );
    await person.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await within(dialog).findByText(PAGE_TEXTS.answerSubmitted);
    const link = within(dialog).getByRole('link', { name: 'Get them on this device too' });
    expect(link.getAttribute('href')).toBe('/Notifications');
  });
});
