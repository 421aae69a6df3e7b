import { formatPhone } from '@shared/phone.ts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { api, playerWithBalance, renderConsole, signInAdmin } from '../test-helpers.tsx';

const server = testServerPerFile();

afterEach(() => {
  setUser(null);
  setSettings(null);
});

describe('Users', () => {
  it('finds players by name, e-mail or username', async () => {
    await signInAdmin(server());
    const ngozi = await server().createUser({
      fullname: 'Ngozi Okafor',
      email: 'ngozi.o@example.test',
    });
    const tunde = await server().createUser({ fullname: 'Tunde Bakare' });
    const person = userEvent.setup();
    renderConsole(server(), '/admin/users');
    // Each player by their public username (the console's name for them), full name beside it.
    const linkOf = (handle: string) => ({ name: `plucker_${handle}` });

    const handle = await screen.findByRole('link', linkOf(tunde.handle));
    expect(screen.getByText('Tunde Bakare')).toBeTruthy();
    // A handle stays whole beside the other columns, never broken mid-word; an address wraps
    // before its @.
    expect(handle.className).toContain('sm:whitespace-nowrap');
    expect(handle.className).not.toContain('break-all');
    const address = screen.getByText('ngozi.o@example.test');
    expect(address.innerHTML).toBe('ngozi.o<wbr>@example.test');
    await person.type(screen.getByRole('searchbox', { name: 'Search' }), 'okafor');
    await person.click(screen.getByRole('button', { name: 'Search' }));

    await waitFor(() => expect(screen.queryByRole('link', linkOf(tunde.handle))).toBeNull());
    expect(screen.getByRole('link', linkOf(ngozi.handle))).toBeTruthy();
    expect(window.location.search).toBe('?q=okafor');
    expect(screen.getByText('1 user matching “okafor”')).toBeTruthy();

    await person.clear(screen.getByRole('searchbox', { name: 'Search' }));
    await person.type(screen.getByRole('searchbox', { name: 'Search' }), `plucker_${ngozi.handle}`);
    await person.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(window.location.search).toContain(ngozi.handle));
    expect(await screen.findByRole('link', linkOf(ngozi.handle))).toBeTruthy();
    expect(screen.getByText('Ngozi Okafor')).toBeTruthy();

    await person.clear(screen.getByRole('searchbox', { name: 'Search' }));
    await person.type(screen.getByRole('searchbox', { name: 'Search' }), 'nobody-like-this');
    await person.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Nobody matches “nobody-like-this”')).toBeTruthy();
  });

  it('finds a player by the phone number as the console shows it', async () => {
    await signInAdmin(server());
    const caller = await server().createUser({ fullname: 'Chidi Caller' });
    const other = await server().createUser({ fullname: 'Other Caller' });
    const shown = formatPhone(caller.phoneNumber);
    const person = userEvent.setup();
    renderConsole(server(), '/admin/users');

    await screen.findByRole('link', { name: `plucker_${other.handle}` });
    await person.type(screen.getByRole('searchbox', { name: 'Search' }), shown);
    await person.click(screen.getByRole('button', { name: 'Search' }));

    await waitFor(() =>
      expect(screen.queryByRole('link', { name: `plucker_${other.handle}` })).toBeNull(),
    );
    const link = await screen.findByRole('link', { name: `plucker_${caller.handle}` });
    expect(within(link.closest('tr') as HTMLElement).getByText(shown)).toBeTruthy();
  });

  it('pages through more than 20 results', async () => {
    await signInAdmin(server());
    for (let n = 1; n <= 21; n += 1) await server().createUser({ fullname: `Pager Person ${n}` });
    const person = userEvent.setup();
    renderConsole(server(), '/admin/users?q=Pager%20Person');

    await screen.findByText('21 users matching “Pager Person”');
    const table = screen.getByRole('region', { name: 'Users' });
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    await person.click(screen.getByRole('button', { name: 'Next' }));

    await screen.findByText('Page 2 of 2');
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: 'Users' })).getAllByRole('row'),
      ).toHaveLength(2),
    );
    expect(window.location.search).toBe('?q=Pager+Person&page=2');
  });

  it('adjusts a wallet after confirming, and the ledger shows the balanced entry', async () => {
    const { token } = await signInAdmin(server());
    const { player } = await playerWithBalance(server(), token, 1000, 'Emeka Nwosu');
    const person = userEvent.setup();
    renderConsole(server(), `/admin/users/${player.id}`);

    await screen.findByRole('heading', { name: 'Emeka Nwosu', level: 1 });
    const form = screen.getByRole('form', { name: 'Adjust wallet' });
    await person.click(within(form).getByRole('button', { name: 'Review' }));
    expect(within(form).getByText('Amount must be a number')).toBeTruthy();
    expect(within(form).getByText('Give a reason of at least 5 characters')).toBeTruthy();

    await person.type(within(form).getByLabelText('Amount (₦, ±)'), '0');
    expect(within(form).getByText('Amount cannot be zero')).toBeTruthy();
    await person.clear(within(form).getByLabelText('Amount (₦, ±)'));
    await person.type(within(form).getByLabelText('Amount (₦, ±)'), '-250');
    await person.type(within(form).getByLabelText('Reason'), 'Chargeback on top-up');
    await person.click(within(form).getByRole('button', { name: 'Review' }));

    const dialog = await screen.findByRole('dialog', { name: 'Debit ₦250?' });
    expect(within(dialog).getByText('₦750')).toBeTruthy();
    await person.click(within(dialog).getByRole('button', { name: 'Debit wallet' }));

    expect(await screen.findByText('Wallet adjusted. New balance ₦750')).toBeTruthy();
    const ledger = await screen.findByRole('region', { name: 'Wallet ledger' });
    await waitFor(() =>
      expect(within(ledger).getByText('Adjustment by operator: Chargeback on top-up')).toBeTruthy(),
    );
    expect(within(ledger).getByText('-₦250')).toBeTruthy();
    const audit = await api<{ data: { entries: Array<Record<string, unknown>> } }>(
      server(),
      token,
      'GET',
      '/admin/audit',
    );
    expect(
      audit.body.data.entries.find(
        (entry) => entry.action === 'wallet.adjust' && entry.targetId === player.id,
      ),
    ).toMatchObject({
      before: { balanceKobo: '100000' },
      after: { balanceKobo: '75000', adjustmentKobo: '-25000', reason: 'Chargeback on top-up' },
    });
    const check = await api<{ data: { ok: boolean } }>(
      server(),
      token,
      'GET',
      '/admin/ledger/check',
    );
    expect(check.body.data.ok).toBe(true);
  });

  it('suspends with a reason and lifts the suspension after confirming', async () => {
    await signInAdmin(server());
    const player = await server().createUser({ fullname: 'Femi Kuti' });
    const person = userEvent.setup();
    renderConsole(server(), `/admin/users/${player.id}`);

    await person.click(await screen.findByRole('button', { name: 'Suspend' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend Femi Kuti?' });
    await person.type(within(dialog).getByLabelText('Reason'), 'Multiple accounts');
    await person.click(within(dialog).getByRole('button', { name: 'Suspend' }));

    expect(await screen.findByText('Player suspended')).toBeTruthy();
    expect(await screen.findByText('Multiple accounts')).toBeTruthy();
    const login = await api(server(), await server().tokenFor(player), 'GET', '/user');
    expect(login.status).toBe(401);

    await person.click(await screen.findByRole('button', { name: 'Lift suspension' }));
    const confirm = await screen.findByRole('dialog', { name: "Lift Femi Kuti's suspension?" });
    await person.click(within(confirm).getByRole('button', { name: 'Lift suspension' }));
    expect(await screen.findByText('Suspension lifted')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Suspend' })).toBeTruthy();
  });
});
