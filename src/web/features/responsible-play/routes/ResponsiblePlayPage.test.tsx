import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  cleanup,
  configure,
  fireEvent,
  render,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fetchUser, setUser } from '@web/lib/session.ts';
import { Toaster } from '@web/lib/toast.tsx';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { adminToken, createGame, playAs, signInPlayer, uniqueTitle } from '../../../test/games.ts';
import { ResponsiblePlayPage } from './ResponsiblePlayPage.tsx';

const server = testServerPerFile();
// A real server answers: give first loads more than the default 1 s.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  setUser(null);
});

/** A signed-in player, and the page as the app renders it; `before` runs between the two. */
async function openPage(balanceNaira = 0, before?: (token: string) => Promise<void>) {
  setPageUrl(`${server().origin}/ResponsiblePlay`);
  const { token } = await signInPlayer(server(), balanceNaira);
  await before?.(token);
  setUser(await fetchUser());
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ResponsiblePlayPage />
      <Toaster />
    </QueryClientProvider>,
  );
}

describe('ResponsiblePlayPage', () => {
  it('offers to remove a limit only for a period that has one', async () => {
    await openPage();
    const person = userEvent.setup();
    const deposits = await screen.findByRole('region', { name: 'Deposit limits' });
    expect(within(deposits).getAllByText('No limit')).toHaveLength(3);
    expect(within(deposits).queryByRole('button', { name: /^Remove/ })).toBeNull();

    await person.type(within(deposits).getByLabelText('Limit in naira'), '5000');
    await person.click(within(deposits).getByRole('button', { name: 'Save deposit limit' }));
    const remove = await within(deposits).findByRole('button', { name: 'Remove daily limit' });

    // The weekly limit is still none: nothing to remove there.
    await person.selectOptions(within(deposits).getByLabelText('Period'), 'week');
    expect(within(deposits).queryByRole('button', { name: /^Remove/ })).toBeNull();
    await person.selectOptions(within(deposits).getByLabelText('Period'), 'day');
    expect(within(deposits).getByRole('button', { name: 'Remove daily limit' })).toBeTruthy();

    // A removal waits 24 hours; once it is waiting, there is nothing more to remove.
    await person.click(within(deposits).getByRole('button', { name: 'Remove daily limit' }));
    await within(deposits).findByText(/^Removal applies from /);
    await waitFor(() => expect(remove.isConnected).toBe(false));
    expect(within(deposits).queryByRole('button', { name: /^Remove/ })).toBeNull();
  });

  it('names the break as a length: "Start a 24-hour break", "Start a 7-day break?"', async () => {
    await openPage();
    const person = userEvent.setup();
    const breaks = await screen.findByRole('region', { name: 'Take a break' });
    expect(within(breaks).getByRole('button', { name: 'Start a 24-hour break' })).toBeTruthy();

    await person.click(within(breaks).getByRole('radio', { name: '7 days' }));
    await person.click(within(breaks).getByRole('button', { name: 'Start a 7-day break' }));
    const dialog = screen.getByRole('dialog', { name: 'Start a 7-day break?' });
    await person.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await person.click(within(breaks).getByRole('radio', { name: '1 year' }));
    expect(within(breaks).getByRole('button', { name: 'Start a 1-year break' })).toBeTruthy();
  });

  it('says the statement scrolls sideways while columns are hidden, and is reachable by keyboard', async () => {
    // An entry fee paid this month gives the statement a row.
    await openPage(1000, async (token) => {
      const game = await createGame(server(), await adminToken(server()), {
        title: uniqueTitle('Name a Lagos beach'),
        entryFee: 100,
        maximumPlayers: 30,
      });
      await playAs(server(), token, game.id);
    });

    const table = await screen.findByRole('region', { name: 'Statement by month' });
    expect(table.tabIndex).toBe(0);
    expect(within(table).getAllByRole('columnheader')).toHaveLength(7);
    const hint = /Swipe the table sideways/;
    expect(screen.queryByText(hint)).toBeNull();

    // A phone-wide box: 900 px of table in 350 px, scrolled to the start, then to the end.
    Object.defineProperties(table, {
      scrollWidth: { configurable: true, value: 900 },
      clientWidth: { configurable: true, value: 350 },
      scrollLeft: { configurable: true, writable: true, value: 0 },
    });
    fireEvent.scroll(table);
    const said = await screen.findByText(hint);
    expect(table.getAttribute('aria-describedby')).toBe(said.id);
    const fade = () => table.parentElement?.querySelector('[aria-hidden="true"]');
    expect(fade()).toBeTruthy();

    table.scrollLeft = 550;
    fireEvent.scroll(table);
    await waitFor(() => expect(fade()).toBeFalsy());
    expect(screen.getByText(hint)).toBeTruthy();
  });
});
