import type { AdminUserDetail } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import {
  api,
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

async function detailOf(token: string, userId: string) {
  const result = await api<Envelope<AdminUserDetail>>(
    server(),
    token,
    'GET',
    `/admin/users/${userId}`,
  );
  return result.body.data;
}

/** The queue's row for a player (their public username, `plucker_<handle>`, links to them). */
async function rowOf(handle: string): Promise<HTMLElement> {
  const link = await screen.findByRole('link', { name: `plucker_${handle}` });
  return link.closest('tr') as HTMLElement;
}

describe('Withdrawals queue', () => {
  it('approves through the provider after confirming; the player is paid', async () => {
    const { token } = await signInAdmin(server());
    const { player, token: playerToken } = await playerWithBalance(
      server(),
      token,
      5000,
      'Ada Obi',
    );
    const withdrawal = await requestWithdrawal(server(), playerToken, 2000);
    const person = userEvent.setup();
    renderConsole(server(), '/admin/withdrawals');

    const row = await rowOf(player.handle);
    expect(within(row).getByText('Pending')).toBeTruthy();
    expect(within(row).getByText('₦2,000')).toBeTruthy();
    expect(within(row).getByText('ADA OBI')).toBeTruthy();
    // The first payout to an account is held for review (anti-money-laundering rules).
    expect(within(row).getByText('Held for review')).toBeTruthy();
    expect(within(row).getByText('New account')).toBeTruthy();

    await person.click(within(row).getByRole('button', { name: /^Approve ₦2,000/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve this withdrawal?' });
    expect(within(dialog).getByLabelText('Pay through the provider')).toHaveProperty(
      'checked',
      true,
    );
    expect(
      within(dialog).getByText(
        'New payout account: nothing has been paid to this bank account for this player before',
      ),
    ).toBeTruthy();
    // The shared schema asks for the note before anything is sent.
    await person.click(within(dialog).getByRole('button', { name: 'Send ₦2,000' }));
    expect(within(dialog).getByText('Write a review note of at least 3 characters')).toBeTruthy();
    expect((await detailOf(token, player.id)).withdrawals.map((w) => w.status)).toEqual([
      'PENDING',
    ]);
    await person.type(within(dialog).getByLabelText('Review note'), 'Name matches the player');
    await person.click(within(dialog).getByRole('button', { name: 'Send ₦2,000' }));

    expect(await screen.findByText('Withdrawal successful')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(async () =>
      expect(within(await rowOf(player.handle)).getByText('Successful')).toBeTruthy(),
    );
    expect(within(await rowOf(player.handle)).queryByRole('button')).toBeNull();
    const detail = await detailOf(token, player.id);
    expect(detail.withdrawals).toEqual([
      expect.objectContaining({ id: withdrawal.id, status: 'SUCCESSFUL' }),
    ]);
  });

  it('marks a withdrawal paid by hand, with a bank reference the shared schema checks', async () => {
    const { token } = await signInAdmin(server());
    const { player, token: playerToken } = await playerWithBalance(
      server(),
      token,
      5000,
      'Bola Ade',
    );
    await requestWithdrawal(server(), playerToken, 1500);
    const person = userEvent.setup();
    renderConsole(server(), '/admin/withdrawals?status=PENDING');

    const row = await rowOf(player.handle);
    await person.click(within(row).getByRole('button', { name: /^Approve/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve this withdrawal?' });
    await person.click(within(dialog).getByLabelText('Mark as paid'));
    await person.type(within(dialog).getByLabelText('Bank reference'), 'AB');
    await person.click(within(dialog).getByRole('button', { name: 'Mark as paid' }));
    expect(within(dialog).getByText('Enter the payment reference')).toBeTruthy();

    await person.type(within(dialog).getByLabelText('Bank reference'), 'C-778812');
    await person.type(within(dialog).getByLabelText('Review note'), 'Paid by hand after a call');
    await person.click(within(dialog).getByRole('button', { name: 'Mark as paid' }));

    expect(await screen.findByText('Withdrawal successful')).toBeTruthy();
    // The pending filter no longer lists it.
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: `plucker_${player.handle}` })).toBeNull(),
    );
    const audit = await api<{ data: { entries: { action: string; after: unknown }[] } }>(
      server(),
      token,
      'GET',
      '/admin/audit',
    );
    expect(audit.body.data.entries[0]).toMatchObject({
      action: 'withdrawal.approve',
      before: { status: 'PENDING', holdReasons: ['new_payout_account'] },
      after: expect.objectContaining({
        paidReference: 'ABC-778812',
        reviewNote: 'Paid by hand after a call',
      }),
    });
  });

  it('rejects only with a reason, and refunds amount and fee to the wallet', async () => {
    const { token } = await signInAdmin(server());
    const { player, token: playerToken } = await playerWithBalance(
      server(),
      token,
      5000,
      'Chidi Eze',
    );
    await requestWithdrawal(server(), playerToken, 3000);
    const before = await detailOf(token, player.id);
    expect(before.user.accountBalance).toBeLessThan(2000);
    const person = userEvent.setup();
    renderConsole(server(), '/admin/withdrawals');

    const row = await rowOf(player.handle);
    await person.click(within(row).getByRole('button', { name: /^Reject ₦3,000/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject this withdrawal?' });
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByLabelText('Reason')),
    );
    await person.click(within(dialog).getByRole('button', { name: 'Reject and refund' }));
    expect(within(dialog).getByText('Give a reason of at least 3 characters')).toBeTruthy();

    await person.type(within(dialog).getByLabelText('Reason'), 'Account name does not match');
    await person.click(within(dialog).getByRole('button', { name: 'Reject and refund' }));

    expect(await screen.findByText('Withdrawal rejected and refunded')).toBeTruthy();
    await waitFor(async () =>
      expect(within(await rowOf(player.handle)).getByText('Rejected')).toBeTruthy(),
    );
    expect(
      within(await rowOf(player.handle)).getByText('Account name does not match'),
    ).toBeTruthy();
    const after = await detailOf(token, player.id);
    expect(after.user.accountBalance).toBe(5000);
  });

  it('marks held withdrawals with their reasons and filters the queue to them', async () => {
    const { token } = await signInAdmin(server());
    const { player: regular, token: regularToken } = await playerWithBalance(
      server(),
      token,
      5000,
      'Efe Uzo',
    );
    // Once a payout has reached the account, the next one to it is not held.
    const first = await requestWithdrawal(server(), regularToken, 500);
    const paid = await api(server(), token, 'POST', `/admin/withdrawals/${first.id}/approve`, {
      paidReference: 'REF-FIRST-1',
      reviewNote: 'First payout checked',
    });
    expect(paid.status).toBe(200);
    await requestWithdrawal(server(), regularToken, 700);
    const { player: flagged, token: flaggedToken } = await playerWithBalance(
      server(),
      token,
      5000,
      'Funke Ade',
    );
    await requestWithdrawal(server(), flaggedToken, 800);
    const person = userEvent.setup();
    renderConsole(server(), '/admin/withdrawals?status=PENDING');

    const regularRow = await rowOf(regular.handle);
    expect(within(regularRow).queryByText('Held for review')).toBeNull();
    const flaggedRow = await rowOf(flagged.handle);
    expect(within(flaggedRow).getByText('Held for review')).toBeTruthy();
    expect(within(flaggedRow).getByText('New account')).toBeTruthy();

    await person.click(screen.getByLabelText('Held for review only'));
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: `plucker_${regular.handle}` })).toBeNull(),
    );
    expect(within(await rowOf(flagged.handle)).getByText('Held for review')).toBeTruthy();
    expect(window.location.search).toContain('held=1');
    for (const row of screen.getAllByRole('row').slice(1))
      expect(within(row).getByText('Held for review')).toBeTruthy();

    // Rejecting shows the reasons too, and is audited with them.
    await person.click(
      within(await rowOf(flagged.handle)).getByRole('button', { name: /^Reject/ }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Reject this withdrawal?' });
    expect(within(dialog).getByRole('region', { name: 'Held for review' })).toBeTruthy();
    await person.type(within(dialog).getByLabelText('Reason'), 'Not the player’s account');
    await person.click(within(dialog).getByRole('button', { name: 'Reject and refund' }));
    expect(await screen.findByText('Withdrawal rejected and refunded')).toBeTruthy();
    const audit = await api<{ data: { entries: { action: string; before: unknown }[] } }>(
      server(),
      token,
      'GET',
      '/admin/audit',
    );
    expect(audit.body.data.entries[0]).toMatchObject({
      action: 'withdrawal.reject',
      before: { status: 'PENDING', holdReasons: ['new_payout_account'] },
    });
  });

  it('shows the server’s message when the withdrawal was already decided elsewhere', async () => {
    const { token } = await signInAdmin(server());
    const { player, token: playerToken } = await playerWithBalance(
      server(),
      token,
      5000,
      'Dayo Ola',
    );
    const withdrawal = await requestWithdrawal(server(), playerToken, 1000);
    const person = userEvent.setup();
    renderConsole(server(), '/admin/withdrawals');

    const row = await rowOf(player.handle);
    // Another operator rejects it first.
    const other = await api(server(), token, 'POST', `/admin/withdrawals/${withdrawal.id}/reject`, {
      reason: 'Duplicate request',
    });
    expect(other.status).toBe(200);
    await person.click(within(row).getByRole('button', { name: /^Approve/ }));
    const dialog = await screen.findByRole('dialog');
    await person.type(within(dialog).getByLabelText('Review note'), 'Checked the account');
    await person.click(within(dialog).getByRole('button', { name: 'Send ₦1,000' }));

    expect(await screen.findByText('This withdrawal has already been processed')).toBeTruthy();
    await waitFor(async () =>
      expect(within(await rowOf(player.handle)).getByText('Rejected')).toBeTruthy(),
    );
  });

  it('finds the withdrawal a player reads out by its short reference, typed as heard', async () => {
    const { token } = await signInAdmin(server());
    const { player, token: playerToken } = await playerWithBalance(
      server(),
      token,
      5000,
      'Ada Obi',
    );
    const { player: other, token: otherToken } = await playerWithBalance(
      server(),
      token,
      5000,
      'Bola Ade',
    );
    const wanted = await requestWithdrawal(server(), playerToken, 1000);
    await requestWithdrawal(server(), otherToken, 1000);
    const person = userEvent.setup();
    renderConsole(server(), '/admin/withdrawals');
    await rowOf(other.handle);

    const heard = `${wanted.shortReference.slice(0, 5)} ${wanted.shortReference.slice(5)}`;
    // The label names the field; the example alone fits a phone's field.
    const field = screen.getByLabelText('Reference') as HTMLInputElement;
    expect(field.placeholder).toBe('e.g. 7KQ2M9XDTR');
    await person.type(field, heard.toLowerCase());
    await person.click(screen.getByRole('button', { name: 'Find' }));

    await waitFor(() =>
      expect(screen.queryByRole('link', { name: `plucker_${other.handle}` })).toBeNull(),
    );
    const row = await rowOf(player.handle);
    // The queue shows the reference on the player's receipt, not the 36-character id.
    expect(within(row).getByText(wanted.shortReference)).toBeTruthy();
    expect(within(row).queryByText(wanted.reference)).toBeNull();
    expect(new URLSearchParams(window.location.search).get('reference')).toBe(heard.toLowerCase());

    await person.click(screen.getByRole('button', { name: 'Show all' }));
    await rowOf(other.handle);
  });
});
