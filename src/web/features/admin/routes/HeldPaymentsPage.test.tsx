import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { api, renderConsole, signInAdmin } from '../test-helpers.tsx';

/** The held payments queue on a server running the payments sandbox (which has no refunds). */
const server = testServerPerFile();

afterEach(() => {
  setUser(null);
  setSettings(null);
});

/**
 * A player opens two ₦1,500 checkouts, then sets a ₦1,500 daily deposit limit (a first limit
 * applies at once) and pays both: the second lands past the limit and is held.
 */
async function heldTopUp() {
  const player = await server().createUser();
  const token = await server().tokenFor(player);
  const open = async () => {
    const started = await api<{ data: { paymentUrl: string; reference: string } }>(
      server(),
      token,
      'POST',
      '/payment/transactpay',
      { amount: 1500 },
    );
    expect(started.status).toBe(200);
    return started.body.data;
  };
  const checkouts = [await open(), await open()];
  const limit = await api(server(), token, 'PUT', '/responsible-play/limits', {
    kind: 'deposit',
    period: 'day',
    amount: 1500,
  });
  expect(limit.status).toBe(200);
  for (const { paymentUrl } of checkouts) {
    const paid = await fetch(`${server().origin}${new URL(paymentUrl).pathname}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
  }
  return { player, reference: checkouts[1]?.reference ?? '' };
}

describe('Held payments', () => {
  it('lists a top-up held past a deposit limit; release waits for the limit, return needs a reason', async () => {
    await signInAdmin(server());
    const { player, reference } = await heldTopUp();
    const person = userEvent.setup();
    renderConsole(server(), '/admin/held-payments');

    expect(await screen.findByRole('heading', { level: 1, name: 'Held payments' })).toBeTruthy();
    const row = (await screen.findByText(reference)).closest('tr') as HTMLElement;
    expect(within(row).getByRole('link', { name: `plucker_${player.handle}` })).toBeTruthy();
    expect(within(row).getByText('₦1,500')).toBeTruthy();
    expect(
      within(row).getByText('it would have taken you past your daily deposit limit of ₦1,500'),
    ).toBeTruthy();

    // Today's limit is used: the release is refused with the player's limit message.
    await person.click(within(row).getByRole('button', { name: 'Release to wallet' }));
    const release = await screen.findByRole('dialog', {
      name: "Release this payment to the player's wallet?",
    });
    await person.type(
      within(release).getByLabelText('Reason'),
      'Player asked for it in the wallet',
    );
    await person.click(within(release).getByRole('button', { name: 'Release' }));
    expect(
      await screen.findByText(/You have reached your daily deposit limit of ₦1,500/),
    ).toBeTruthy();
    await person.click(within(release).getByRole('button', { name: 'Cancel' }));

    // The sandbox has no refund API: the operator records a return made by hand.
    await person.click(within(row).getByRole('button', { name: 'Mark returned' }));
    const giveBack = await screen.findByRole('dialog', {
      name: 'Return this payment to the payer?',
    });
    await person.click(within(giveBack).getByRole('button', { name: 'Return' }));
    expect(
      await within(giveBack).findByText(
        'Give the reason for the decision (at least 10 characters)',
      ),
    ).toBeTruthy();
    await person.type(within(giveBack).getByLabelText('Reason'), 'Returned by bank transfer');
    await person.click(within(giveBack).getByRole('button', { name: 'Return' }));
    expect(await screen.findByText('Returned to the payer')).toBeTruthy();
    expect(
      await within(row).findByText(/Returned to the payer .*: Returned by bank transfer/),
    ).toBeTruthy();
  });
  it("shows a held bank transfer's sender and bank, the one it goes back to", async () => {
    await signInAdmin(server());
    const player = await server().createUser();
    const token = await server().tokenFor(player);
    const account = await api<{ data: { account: { accountNumber: string } } }>(
      server(),
      token,
      'POST',
      '/payment/bank-transfer/account',
      {},
    );
    expect(account.status).toBe(200);
    const limit = await api(server(), token, 'PUT', '/responsible-play/limits', {
      kind: 'deposit',
      period: 'day',
      amount: 1000,
    });
    expect(limit.status).toBe(200);
    // The sandbox's "a transfer arrives" page, posted as its form is.
    const sent = await fetch(`${server().origin}/api/v1/payment/sandbox/transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        account: account.body.data.account.accountNumber,
        amount: '2500',
        senderName: 'NGOZI ABA',
        senderBank: 'Zenith Bank',
      }).toString(),
      redirect: 'manual',
    });
    expect(sent.status).toBe(303);
    const reference = new URL(
      String(sent.headers.get('location')),
      server().origin,
    ).searchParams.get('transfer');
    const person = userEvent.setup();
    renderConsole(server(), '/admin/held-payments');

    const row = (await screen.findByText(reference ?? '')).closest('tr') as HTMLElement;
    expect(within(row).getByText('NGOZI ABA (Zenith Bank)')).toBeTruthy();
    expect(within(row).getByText('Bank transfer')).toBeTruthy();
    expect(within(row).getByText('₦2,500')).toBeTruthy();
    await person.click(within(row).getByRole('button', { name: 'Mark returned' }));
    const giveBack = await screen.findByRole('dialog', {
      name: 'Return this payment to the payer?',
    });
    expect(
      within(giveBack).getByText(/₦2,500 sent by NGOZI ABA \(Zenith Bank\) to plucker_/),
    ).toBeTruthy();
  });
});
