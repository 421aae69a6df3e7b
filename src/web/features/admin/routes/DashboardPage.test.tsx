import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import {
  playerWithBalance,
  renderConsole,
  requestWithdrawal,
  signInAdmin,
} from '../test-helpers.tsx';

const server = testServerPerFile();

afterEach(() => {
  setUser(null);
  setSettings(null);
});

function figure(label: string): string {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

describe('Dashboard', () => {
  it('shows the totals, the 30-day chart and a balanced ledger', async () => {
    const { token } = await signInAdmin(server());
    const { token: playerToken } = await playerWithBalance(server(), token, 4000);
    await requestWithdrawal(server(), playerToken, 1000);
    renderConsole(server(), '/admin');

    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    await screen.findByText('House margin');
    // The operator credited ₦4,000 by hand; the withdrawal fee is platform revenue.
    expect(figure('Adjustments')).toBe('₦4,000');
    const fee = Number(figure('Withdrawal fees').replace(/[^\d]/g, ''));
    expect(fee).toBeGreaterThanOrEqual(0);
    expect(figure('House margin')).toBe(`-₦${(4000 - fee).toLocaleString('en-NG')}`);

    const chart = screen.getByRole('img', {
      name: 'Deposits, prizes and house margin per day, last 30 days',
    });
    expect(chart.querySelectorAll('polyline')).toHaveLength(3);
    expect(
      within(screen.getByRole('list', { name: 'Legend' })).getAllByRole('listitem'),
    ).toHaveLength(3);

    expect(screen.getByText('The books balance')).toBeTruthy();
    expect(screen.getByText('All entries together sum to zero')).toBeTruthy();
    // A long invariant name may wrap on a phone, but only between its words.
    const name = screen.getByText('payout_clearing_matches_open_withdrawals');
    expect(name.querySelectorAll('wbr')).toHaveLength(4);

    // The first payout to an account is held for review: counted per reason, with a way there.
    const holds = screen.getByRole('region', { name: 'Held for review' });
    const row = within(holds).getByText('New account').closest('tr') as HTMLElement;
    const count = within(row).getAllByRole('cell')[1]?.textContent ?? '';
    expect(Number(count.replace(/\D/g, ''))).toBeGreaterThanOrEqual(1);
    expect(
      within(holds).getByRole('link', { name: 'Review held withdrawals' }).getAttribute('href'),
    ).toBe('/admin/withdrawals?status=PENDING&held=1');
  });

  it('asks for a range and refuses one that ends before it starts', async () => {
    await signInAdmin(server());
    const person = userEvent.setup();
    renderConsole(server(), '/admin');

    await screen.findByText('House margin');
    const ranges = screen.getByRole('group', { name: 'Quick ranges' });
    const pressed = () =>
      within(ranges)
        .getAllByRole('button', { pressed: true })
        .map((button) => button.textContent);
    // The report opens on the last 30 days, and that quick range shows as the one chosen.
    expect(pressed()).toEqual(['30 days']);
    await person.click(screen.getByRole('button', { name: '90 days' }));
    expect(pressed()).toEqual(['90 days']);
    await screen.findByText(/whole days in Lagos time/);

    const from = screen.getByLabelText('From') as HTMLInputElement;
    await person.clear(from);
    await person.type(from, '2999-01-01');
    expect(screen.getByText('From must be before To')).toBeTruthy();
    await person.click(screen.getByRole('button', { name: '7 days' }));
    expect(screen.queryByText('From must be before To')).toBeNull();
    expect(pressed()).toEqual(['7 days']);
  });
});
