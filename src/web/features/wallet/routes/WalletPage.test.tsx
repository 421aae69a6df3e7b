import type { Settings } from '@shared/schemas/settings.ts';
import type { User } from '@shared/schemas/users.ts';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fetchUser, getSession, setSettings, setUser } from '@web/lib/session.ts';
import { sampleSettings } from '@web/test/sample-data.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { closedOrigin, sendJson, startFakeServer } from '../../../test/fake-server.ts';
import { adminToken, createGame, playAs, uniqueTitle } from '../../../test/games.ts';
import { api, signIn, topUpThroughSandbox, withClient } from '../../../test/player.tsx';
import { banks, samplePlayer, validNuban } from '../testing.tsx';
import { WalletPage } from './WalletPage.tsx';

const server = testServerPerFile();

afterEach(() => {
  vi.useRealTimers();
  // Unmount first: a mounted wallet would reload the settings it just lost.
  cleanup();
  setUser(null);
  setSettings(null);
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function amountField() {
  return screen.getByLabelText('Amount to withdraw (₦)') as HTMLInputElement;
}

function balanceCard() {
  return screen.getByRole('region', { name: 'Wallet balance' });
}

/** A bank whose 3-digit code takes the NUBAN check digit. */
async function checkedBank() {
  const bank = (await banks()).find((candidate) => /^\d{3}$/.test(candidate.code));
  if (!bank) throw new Error('no bank with a 3-digit code in the seeded list');
  return bank;
}

async function openWallet(options: { balance?: number; withBank?: boolean } = {}) {
  setPageUrl(`${server().origin}/wallet`);
  const { token, user } = await signIn(server());
  if (options.balance) await topUpThroughSandbox(token, options.balance);
  if (options.withBank) {
    const bank = await checkedBank();
    const saved = await fetch('/api/v1/bank-account', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ bankID: bank.id, accountNumber: validNuban(bank.code) }),
    });
    expect(saved.status).toBe(200);
  }
  setUser(await fetchUser());
  const person = userEvent.setup();
  render(withClient(<WalletPage />));
  return { token, user, person };
}

describe('WalletPage', () => {
  it('shows the fee and minimum from settings, the total to be debited and the processing time', async () => {
    const { person } = await openWallet();
    const settings = getSession().settings as Settings;

    expect(screen.getByRole('heading', { level: 1, name: 'Withdraw funds' })).toBeTruthy();
    expect(screen.getByText('Withdrawals are processed within 24–48 hours.')).toBeTruthy();
    const summary = (label: string) =>
      (screen.getByText(label).nextElementSibling as HTMLElement).textContent;
    expect(summary('Minimum')).toBe(`₦${settings.minimumPaymentAmount.toLocaleString('en-NG')}`);
    expect(summary('Transaction fee')).toBe(
      `₦${settings.withdrawalTransactionFee.toLocaleString('en-NG')}`,
    );
    expect(summary('Total to be debited')).toBe('—');

    await person.type(amountField(), '1,000');
    expect(summary('Total to be debited')).toBe(
      `₦${(1000 + settings.withdrawalTransactionFee).toLocaleString('en-NG')}`,
    );
    expect(await screen.findByText('No withdrawals yet')).toBeTruthy();
    const chart = await screen.findByRole('figure', { name: 'Balance over time' });
    expect(await within(chart).findByText('No movements yet')).toBeTruthy();
  });

  it('draws the chart from the wallet ledger: top-up, operator credit and game entry, to the balance now', async () => {
    setPageUrl(`${server().origin}/wallet`);
    const { token, user } = await signIn(server());
    await topUpThroughSandbox(token, 2500);
    const admin = await adminToken(server());
    await api(admin, 'POST', `/admin/users/${user.id}/adjust`, {
      amount: 1_245_000,
      reason: 'Goodwill credit after a failed transfer',
    });
    const game = await createGame(server(), admin, {
      title: uniqueTitle('Chart'),
      entryFee: 100,
    });
    await playAs(server(), token, game.id);
    setUser(await fetchUser());
    const person = userEvent.setup();
    render(withClient(<WalletPage />));

    const chart = await screen.findByRole('figure', { name: 'Balance over time' });
    expect(
      await within(chart).findByRole('img', {
        name: /^Balance went from ₦0 on .+ to ₦1,247,400 now, over 3 movements\.$/,
      }),
    ).toBeTruthy();
    const legend = within(chart).getByRole('list', { name: 'Legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Top-up', 'Game entry', 'Adjustment']);
    expect(within(chart).queryByText(/not listed here/)).toBeNull();

    await person.click(within(chart).getByText('Show every movement'));
    const rows = within(within(chart).getByRole('table')).getAllByRole('row').slice(1);
    expect(
      rows.map((row) => [
        within(row).getByRole('rowheader').firstElementChild?.textContent,
        ...within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ]),
    ).toEqual([
      ['Game entry', '-₦100', '₦1,247,400'],
      ['Adjustment', '+₦1,245,000', '₦1,247,500'],
      ['Top-up', '+₦2,500', '₦2,500'],
    ]);
  });

  it('says so when the chart cannot be loaded, and loads it on Try again', async () => {
    let refuse = true;
    const fake = await startFakeServer((request, response) => {
      const path = request.url.split('?')[0];
      if (path === '/api/v1/wallet/balance-history') {
        if (refuse)
          return sendJson(response, 500, {
            message: 'Internal Server Error',
            statusCode: 500,
            code: 'INTERNAL',
          });
        return sendJson(response, 200, {
          data: {
            points: [
              { at: '2025-06-01T10:00:00.000Z', balance: 5000, change: 5000, movement: 'top_up' },
            ],
            hasEarlier: false,
          },
        });
      }
      if (path === '/api/v1/user')
        return sendJson(response, 200, { data: { ...samplePlayer, accountBalance: 5000 } });
      const empty = { totalResults: 0, totalPages: 1, page: 1, pageSize: 10 };
      if (path === '/api/v1/withdrawal')
        return sendJson(response, 200, { data: { withdrawals: [], pagination: empty } });
      sendJson(response, 404, { message: 'Not found', statusCode: 404, code: 'NOT_FOUND' });
    });
    setPageUrl(`${fake.origin}/wallet`);
    localStorage.setItem('authToken', 'token-abc');
    setUser({ ...samplePlayer, accountBalance: 5000 });
    setSettings(sampleSettings);
    const person = userEvent.setup();
    render(withClient(<WalletPage />));

    const chart = await screen.findByRole('figure', { name: 'Balance over time' });
    expect(await within(chart).findByText('We could not load your balance chart.')).toBeTruthy();
    refuse = false;
    await person.click(within(chart).getByRole('button', { name: 'Try again' }));
    expect(
      await within(chart).findByRole('img', {
        name: /^Balance went from ₦0 on .+ to ₦5,000 now, over 1 movement\.$/,
      }),
    ).toBeTruthy();
  });

  it('says "Enter amount to withdraw" for an empty or non-numeric amount, and checks the limits', async () => {
    const { person } = await openWallet();
    const fetchSpy = vi.spyOn(window, 'fetch');

    await person.click(screen.getByRole('button', { name: 'Withdraw' }));
    const error = screen.getByText('Enter amount to withdraw');
    expect(amountField().getAttribute('aria-describedby')).toBe(error.id);
    expect(amountField().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(amountField());

    await person.type(amountField(), 'all of it');
    await person.click(screen.getByRole('button', { name: 'Withdraw' }));
    expect(screen.getByText('Enter amount to withdraw')).toBeTruthy();

    await person.clear(amountField());
    await person.type(amountField(), '50');
    await person.click(screen.getByRole('button', { name: 'Withdraw ₦50' }));
    expect(screen.getByText('The minimum withdrawal is ₦100')).toBeTruthy();

    await person.clear(amountField());
    await person.type(amountField(), '500');
    await person.click(screen.getByRole('button', { name: 'Withdraw ₦500' }));
    expect(
      screen.getByText('Insufficient balance: this withdrawal needs ₦550 (including the ₦50 fee)'),
    ).toBeTruthy();

    const posted = fetchSpy.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(posted).toEqual([]);
  });

  it('saves a bank account and shows the account name the bank returned', async () => {
    const { person, user } = await openWallet();
    const bank = await checkedBank();
    const form = () => screen.getByRole('form', { name: 'Bank account' });

    await waitFor(() =>
      expect(within(form()).getByRole('option', { name: bank.bankName })).toBeTruthy(),
    );
    await person.click(within(form()).getByRole('button', { name: 'Save bank account' }));
    expect(within(form()).getByText('Select your bank', { selector: 'p' })).toBeTruthy();
    expect(within(form()).getByText('Account number must be 10 digits')).toBeTruthy();

    await person.selectOptions(within(form()).getByLabelText('Bank'), bank.id);
    const number = within(form()).getByLabelText('Account number') as HTMLInputElement;
    await person.type(number, '01-234 5678x9');
    expect(number.value).toBe('0123456789');
    const wrongDigit = `${validNuban(bank.code).slice(0, 9)}${(Number(validNuban(bank.code)[9]) + 1) % 10}`;
    await person.clear(number);
    await person.type(number, wrongDigit);
    await person.click(within(form()).getByRole('button', { name: 'Save bank account' }));
    // The field's own error (a <p>), which only the answer to the save sets: the lookup shows
    // the same words (a <span>) while the save may still be waiting on the bank.
    expect(
      await within(form()).findByText('Enter a valid 10-digit account number for this bank', {
        selector: 'p',
      }),
    ).toBeTruthy();

    await person.clear(number);
    await person.type(number, validNuban(bank.code));
    await person.click(within(form()).getByRole('button', { name: 'Save bank account' }));

    const region = screen.getByRole('region', { name: 'Bank account' });
    expect(await within(region).findByText('Saved. Check that this is your name.')).toBeTruthy();
    expect(within(region).getByText(user.fullname.toUpperCase())).toBeTruthy();
    expect(within(region).getByText(bank.bankName)).toBeTruthy();
    expect(within(region).getByText(validNuban(bank.code))).toBeTruthy();
    expect(await screen.findByText('Bank account saved')).toBeTruthy();
    expect(getSession().user?.bankAccount).toEqual({
      bankID: bank.id,
      accountNumber: validNuban(bank.code),
      accountName: user.fullname.toUpperCase(),
    });
    expect(screen.queryByText(/Add the bank account your money goes to/)).toBeNull();
  });

  it('withdraws against the real server: message, then history and balance reload', async () => {
    const { person } = await openWallet({ balance: 5000, withBank: true });
    expect(within(balanceCard()).getByText('₦5,000')).toBeTruthy();
    expect(await screen.findByText('No withdrawals yet')).toBeTruthy();
    const fetchSpy = vi.spyOn(window, 'fetch');

    await person.type(amountField(), '1000');
    await person.click(screen.getByRole('button', { name: 'Withdraw ₦1,000' }));
    // The first tap only asks to confirm: nothing is sent yet.
    const confirm = screen.getByRole('dialog', { name: 'Confirm your withdrawal' });
    expect(within(confirm).getByText('₦1,050')).toBeTruthy();
    expect(within(confirm).getByText('Withdrawals are processed within 24–48 hours.')).toBeTruthy();
    expect(fetchSpy.mock.calls.filter(([, init]) => init?.method === 'POST')).toEqual([]);
    await person.click(within(confirm).getByRole('button', { name: 'Confirm withdrawal' }));

    // Named as a receipt: "Withdrawal requested" is said once, by the server's message.
    const receipt = await screen.findByRole('dialog', { name: 'Your withdrawal receipt' });
    expect(
      within(receipt).getByText('Withdrawal requested. It will be processed within 24–48 hours.'),
    ).toBeTruthy();
    expect(within(receipt).getAllByText(/Withdrawal requested/)).toHaveLength(1);
    // The short reference a player can read out, not the 36-character id.
    const reference = within(receipt).getByText('Reference').nextElementSibling;
    expect(reference?.textContent).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(within(receipt).queryByText(/^wd-/)).toBeNull();
    await person.click(within(receipt).getByRole('button', { name: 'Done' }));
    const post = fetchSpy.mock.calls.find(
      ([url, init]) => String(url).endsWith('/api/v1/withdrawal') && init?.method === 'POST',
    );
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ amount: 1000 });
    const headers = post?.[1]?.headers as Record<string, string>;
    expect(headers['Idempotency-Key']).toMatch(UUID);

    const list = await screen.findByRole('list', { name: 'Withdrawal history' }, { timeout: 3000 });
    const [row] = within(list).getAllByRole('listitem');
    expect(within(row as HTMLElement).getByText('₦1,000')).toBeTruthy();
    expect(within(row as HTMLElement).getByText(/Fee ₦50/)).toBeTruthy();
    const badge = within(row as HTMLElement).getByText('Pending');
    expect(badge.className).toContain('text-wallet');
    expect(badge.querySelector('[data-icon="info"]')).not.toBeNull();
    await waitFor(() => expect(within(balanceCard()).getByText('₦3,950')).toBeTruthy());
    expect(
      await screen.findByRole('img', {
        name: /^Balance went from ₦0 on .+ to ₦3,950 now, over 2 movements\.$/,
      }),
    ).toBeTruthy();
  });

  it('retries a failed attempt with the same Idempotency-Key, and a new amount gets a new one', async () => {
    const user: User = { ...samplePlayer, accountBalance: 5000 };
    let posts = 0;
    // The network drops the first request after it left the phone; the second gets through.
    const fake = await startFakeServer((request, response) => {
      const path = request.url.split('?')[0];
      if (request.method === 'POST' && path === '/api/v1/withdrawal') {
        posts += 1;
        if (posts === 1) {
          response.socket?.destroy();
          return;
        }
        sendJson(response, 201, {
          message: 'Withdrawal requested. It will be processed within 24–48 hours.',
          data: {
            id: `w${posts}`,
            reference: `wd-w${posts}`,
            shortReference: `WD0000000${posts}`,
            amount: 1000,
            fee: 50,
            status: 'pending',
            bankName: 'Test Bank',
            accountNumber: '0123456789',
            accountName: 'ADA OBI',
            createdAt: new Date().toISOString(),
          },
        });
        return;
      }
      if (path === '/api/v1/user') return sendJson(response, 200, { data: user });
      if (path === '/api/v1/bank')
        return sendJson(response, 200, {
          data: [{ id: 'b1', bankName: 'Test Bank', code: '058' }],
        });
      const empty = { totalResults: 0, totalPages: 1, page: 1, pageSize: 10 };
      if (path === '/api/v1/withdrawal')
        return sendJson(response, 200, { data: { withdrawals: [], pagination: empty } });
      if (path === '/api/v1/payment')
        return sendJson(response, 200, { data: { payments: [], pagination: empty } });
      sendJson(response, 404, { message: 'Not found', statusCode: 404, code: 'NOT_FOUND' });
    });
    setPageUrl(`${fake.origin}/wallet`);
    localStorage.setItem('authToken', 'token-abc');
    setUser(user);
    setSettings(sampleSettings);
    const person = userEvent.setup();
    render(withClient(<WalletPage />));
    const keys = () =>
      fake.requests
        .filter((request) => request.method === 'POST')
        .map((request) => request.headers['idempotency-key']);

    await person.type(amountField(), '1000');
    await person.click(screen.getByRole('button', { name: 'Withdraw ₦1,000' }));
    const confirmButton = () => screen.getByRole('button', { name: 'Confirm withdrawal' });
    await person.click(confirmButton());
    // The failure stays in the dialog; nothing is sent again until the player taps Confirm.
    const dialog = screen.getByRole('dialog', { name: 'Confirm your withdrawal' });
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Network Error');
    // A minute later (on a fake clock), still nothing was sent again.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await vi.advanceTimersByTimeAsync(60_000);
    vi.useRealTimers();
    expect(keys()).toHaveLength(1);
    await person.click(confirmButton());
    const receipt = await screen.findByRole('dialog', { name: 'Your withdrawal receipt' });
    expect(within(receipt).getByText('WD00000002')).toBeTruthy();
    expect(keys()).toHaveLength(2);
    expect(keys()[0]).toMatch(UUID);
    expect(keys()[1]).toBe(keys()[0]);
    await person.click(within(receipt).getByRole('button', { name: 'Done' }));

    await person.type(amountField(), '200');
    await person.click(screen.getByRole('button', { name: 'Withdraw ₦200' }));
    await person.click(confirmButton());
    await waitFor(() => expect(keys()).toHaveLength(3));
    expect(keys()[2]).toMatch(UUID);
    expect(keys()[2]).not.toBe(keys()[0]);
    // Let the page's own reload, 500 ms after the success, finish before the fake closes.
    const reloads = () => fake.requests.filter((request) => request.url === '/api/v1/user').length;
    const before = reloads();
    await waitFor(() => expect(reloads()).toBeGreaterThan(before), { timeout: 2000 });
  });

  it("toasts 'Error getting banks' when the bank list cannot be loaded", async () => {
    setPageUrl(`${await closedOrigin()}/wallet`);
    localStorage.setItem('authToken', 'token-abc');
    setUser({ ...samplePlayer, bankAccount: null });
    setSettings(sampleSettings);
    render(withClient(<WalletPage />));

    const form = screen.getByRole('form', { name: 'Bank account' });
    expect(await within(form).findByText('Error getting banks')).toBeTruthy();
    expect(within(form).getByRole('option', { name: 'Banks unavailable' })).toBeTruthy();
    expect(within(form).getByRole('button', { name: 'Try again' })).toBeTruthy();
    const toasts = screen.getAllByText('Error getting banks');
    expect(toasts).toHaveLength(2);
  });
});
