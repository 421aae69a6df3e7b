import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AGE_GATE_TEXTS } from '@web/components/ui/AgeGate.tsx';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { api, checkoutPath, finishCheckout, signIn, withClient } from '../../../test/player.tsx';
import { POPUP_BLOCKED_MESSAGE } from '../components/TopUpForm.tsx';
import { TopUpPage } from './TopUpPage.tsx';

const server = testServerPerFile();

/** Stands in for the blank tab window.open gives during the tap (see lib/checkout-tab.ts). */
function fakeTab() {
  const tab = {
    closed: false,
    opener: {} as unknown,
    location: { href: 'about:blank' },
    document: { write: vi.fn(), close: vi.fn() },
    close: vi.fn(() => {
      tab.closed = true;
    }),
  };
  return tab;
}

beforeEach(() => {
  setPageUrl(`${server().origin}/TopUp`);
});

afterEach(() => {
  vi.useRealTimers();
  // Unmount first: a mounted wallet would reload the settings it just lost.
  cleanup();
  setUser(null);
  setSettings(null);
});

function amountField() {
  return screen.getByLabelText('Amount (₦)') as HTMLInputElement;
}

function paymentItems() {
  const list = screen.getByRole('list', { name: 'Payment history' });
  return within(list).getAllByRole('listitem');
}

/** The tab coming back into view, as after paying in the checkout tab. */
function returnToTab() {
  // The wallet reloads at most once a second on return; a real return comes later than that.
  // Only the clock jumps: timers, fetch and the server stay real.
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + 1100);
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
}

describe('TopUpPage', () => {
  it('shows the balance, the form with its static ₦100 minimum and an empty history', async () => {
    await signIn(server());
    render(withClient(<TopUpPage />));

    expect(screen.getByRole('heading', { level: 1, name: 'Top up' })).toBeTruthy();
    expect(
      within(screen.getByRole('region', { name: 'Wallet balance' })).getByText('₦0'),
    ).toBeTruthy();
    expect(screen.getByText('Minimum top-up: ₦100')).toBeTruthy();
    const method = screen.getByLabelText('Payment method') as HTMLSelectElement;
    expect(method.value).toBe('transactpay');
    expect([...method.options].map((option) => option.text)).toEqual([
      'TransactPay',
      'Paystack',
      'Flutterwave',
    ]);
    expect(await screen.findByText('No top-ups yet')).toBeTruthy();
  });

  it('fills the amount from the quick amounts 1000, 2500, 5000 and 10000', async () => {
    await signIn(server());
    const person = userEvent.setup();
    render(withClient(<TopUpPage />));

    const quick = within(screen.getByRole('group', { name: 'Quick amounts' })).getAllByRole(
      'button',
    );
    expect(quick.map((button) => button.textContent)).toEqual([
      '₦1,000',
      '₦2,500',
      '₦5,000',
      '₦10,000',
    ]);
    await person.click(screen.getByRole('button', { name: '₦2,500' }));
    expect(amountField().value).toBe('2500');
    expect(screen.getByRole('button', { name: '₦2,500' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(screen.getByRole('button', { name: 'Top up ₦2,500' })).toBeTruthy();
    await person.click(screen.getByRole('button', { name: '₦10,000' }));
    expect(amountField().value).toBe('10000');
  });

  it('says "Enter a topup amount" for an empty or non-numeric amount, on the field', async () => {
    await signIn(server());
    const open = vi.spyOn(window, 'open');
    const person = userEvent.setup();
    render(withClient(<TopUpPage />));

    await person.click(screen.getByRole('button', { name: 'Top up' }));
    const error = screen.getByText('Enter a topup amount');
    expect(amountField().getAttribute('aria-invalid')).toBe('true');
    expect(amountField().getAttribute('aria-describedby')).toBe(error.id);
    expect(document.activeElement).toBe(amountField());

    await person.type(amountField(), 'lots');
    expect(screen.queryByText('Enter a topup amount')).toBeNull();
    await person.click(screen.getByRole('button', { name: 'Top up' }));
    expect(screen.getByText('Enter a topup amount')).toBeTruthy();

    await person.clear(amountField());
    await person.type(amountField(), '50');
    await person.click(screen.getByRole('button', { name: 'Top up ₦50' }));
    expect(screen.getByText('The minimum top-up is ₦100')).toBeTruthy();
    expect(open).not.toHaveBeenCalled();
  });

  it('tops up through the sandbox checkout in a new tab; the history and balance follow', async () => {
    const { token } = await signIn(server());
    const tab = fakeTab();
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const person = userEvent.setup();
    render(withClient(<TopUpPage />));
    await screen.findByText('No top-ups yet');

    await person.click(screen.getByRole('button', { name: '₦1,000' }));
    await person.selectOptions(screen.getByLabelText('Payment method'), 'paystack');
    await person.click(screen.getByRole('button', { name: 'Top up ₦1,000' }));

    expect(open).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(tab.location.href).toContain('/api/v1/payment/sandbox/paystack/'));
    expect(tab.opener).toBeNull();
    expect(await screen.findByText('Waiting for your payment')).toBeTruthy();
    expect(amountField().value).toBe('');
    await waitFor(() => expect(paymentItems()).toHaveLength(1));
    expect(within(paymentItems()[0] as HTMLElement).getByText('Pending')).toBeTruthy();
    expect(within(paymentItems()[0] as HTMLElement).getByText('₦1,000')).toBeTruthy();

    // The player taps Pay on the checkout page, then comes back to this tab.
    await finishCheckout(tab.location.href);
    returnToTab();

    await waitFor(() =>
      expect(within(paymentItems()[0] as HTMLElement).getByText('Successful')).toBeTruthy(),
    );
    const row = paymentItems()[0] as HTMLElement;
    expect(within(row).getByText(/Paystack/)).toBeTruthy();
    expect(row.querySelector('[data-icon="check"]')).not.toBeNull();
    await waitFor(() =>
      expect(
        within(screen.getByRole('region', { name: 'Wallet balance' })).getByText('₦1,000'),
      ).toBeTruthy(),
    );

    expect(screen.getByText('Payment received')).toBeTruthy();
    expect(screen.getByText('₦1,000 was added to your wallet.')).toBeTruthy();
    expect(screen.queryByText('Waiting for your payment')).toBeNull();

    const ledger = await fetch('/api/v1/payment', {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await ledger.json()) as { data: { payments: Array<{ status: string }> } };
    expect(body.data.payments.map((payment) => payment.status)).toEqual(['successful']);
  });

  it('asks a player who never confirmed 18+ (Google sign-up) first, then opens the checkout', async () => {
    await signIn(server(), { ageConfirmedAt: null });
    const tab = fakeTab();
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const person = userEvent.setup();
    render(withClient(<TopUpPage />));
    await screen.findByText('No top-ups yet');

    await person.click(screen.getByRole('button', { name: '₦1,000' }));
    await person.click(screen.getByRole('button', { name: 'Top up ₦1,000' }));
    const ask = screen.getByRole('dialog', { name: AGE_GATE_TEXTS.title });
    expect(open).not.toHaveBeenCalled();

    await person.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: AGE_GATE_TEXTS.title })).toBeNull();
    expect(open).not.toHaveBeenCalled();

    await person.click(screen.getByRole('button', { name: 'Top up ₦1,000' }));
    const again = screen.getByRole('dialog', { name: AGE_GATE_TEXTS.title });
    await person.click(within(again).getByRole('checkbox', { name: AGE_GATE_TEXTS.checkbox }));
    await person.click(within(again).getByRole('button', { name: 'Confirm and continue' }));

    await waitFor(() => expect(tab.location.href).toContain('/api/v1/payment/sandbox/'));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(await screen.findByText('Waiting for your payment')).toBeTruthy();
  });

  it('pages through the payment history, newest first', async () => {
    const { token } = await signIn(server());
    for (let n = 1; n <= 11; n += 1) {
      const response = await fetch('/api/v1/payment/transactpay', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 100 * n }),
      });
      expect(response.status).toBe(200);
    }
    const person = userEvent.setup();
    render(withClient(<TopUpPage />));

    await waitFor(() => expect(paymentItems()).toHaveLength(10));
    expect(within(paymentItems()[0] as HTMLElement).getByText('₦1,100')).toBeTruthy();
    expect(screen.getByText('Page 1 of 2')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(
      true,
    );

    await person.click(screen.getByRole('button', { name: 'Next' }));

    await waitFor(() => expect(paymentItems()).toHaveLength(1));
    expect(within(paymentItems()[0] as HTMLElement).getByText('₦100')).toBeTruthy();
    expect(screen.getByText('Page 2 of 2')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Payment history' }));
  });

  it('shows a cancelled checkout as failed, in red with the info icon', async () => {
    await signIn(server());
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const person = userEvent.setup();
    render(withClient(<TopUpPage />));

    await person.type(amountField(), '2,500');
    await person.click(screen.getByRole('button', { name: 'Top up ₦2,500' }));
    await waitFor(() => expect(tab.location.href).toContain('/api/v1/payment/sandbox/'));
    await finishCheckout(tab.location.href, 'cancel');
    returnToTab();

    const badge = await screen.findByText('Failed');
    expect(badge.className).toContain('text-danger');
    expect(badge.querySelector('[data-icon="info"]')).not.toBeNull();
    expect(screen.getByText('Payment not completed')).toBeTruthy();
  });

  it('shows a top-up that landed past a deposit limit as held, saying where the money is', async () => {
    const { token } = await signIn(server());
    const open = () =>
      api<{ data: { paymentUrl: string } }>(token, 'POST', '/payment/transactpay', {
        amount: 1000,
      });
    // Two checkouts, then a first limit (it applies at once): the second to land is held.
    const checkouts = [await open(), await open()];
    await api(token, 'PUT', '/responsible-play/limits', {
      kind: 'deposit',
      period: 'day',
      amount: 1000,
    });
    for (const { data } of checkouts) await finishCheckout(data.paymentUrl);
    render(withClient(<TopUpPage />));

    const badge = await screen.findByText('Held');
    expect(badge.className).toContain('text-wallet');
    const item = badge.closest('li') as HTMLElement;
    await userEvent.setup().click(within(item).getByText('Receipt'));
    expect(
      await within(item).findByText(
        '₦1,000 is on hold: it would have taken you past your daily deposit limit of ₦1,000, so it was not added to your wallet. It is safe: our team will return it to you or, once your limit allows, add it to your wallet.',
      ),
    ).toBeTruthy();
    // The balance is the player's as reloaded on arrival, which may answer after the history.
    expect(
      await within(screen.getByRole('region', { name: 'Wallet balance' })).findByText('₦1,000'),
    ).toBeTruthy();
  });

  it('closes the blank tab and shows the server message when the top-up is refused', async () => {
    await signIn(server());
    await fetch('/api/v1/settings'); // the page's own settings come from the session
    const tab = fakeTab();
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const person = userEvent.setup();
    render(withClient(<TopUpPage />));

    await person.type(amountField(), '20000000');
    await person.click(screen.getByRole('button', { name: 'Top up ₦20,000,000' }));

    expect(await screen.findByText('The maximum top-up is ₦10,000,000')).toBeTruthy();
    expect(tab.close).toHaveBeenCalled();
    expect(screen.queryByText('Waiting for your payment')).toBeNull();
  });

  it('opens the checkout in this tab, and says so, when the browser blocks the new tab', async () => {
    await signIn(server());
    vi.spyOn(window, 'open').mockReturnValue(null);
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const person = userEvent.setup();
    render(withClient(<TopUpPage />));

    await person.click(screen.getByRole('button', { name: '₦5,000' }));
    await person.click(screen.getByRole('button', { name: 'Top up ₦5,000' }));

    expect(await screen.findByText(POPUP_BLOCKED_MESSAGE)).toBeTruthy();
    await waitFor(() => expect(assign).toHaveBeenCalledTimes(1), { timeout: 3000 });
    expect(checkoutPath(String(assign.mock.calls[0]?.[0]))).toMatch(
      /^\/api\/v1\/payment\/sandbox\/transactpay\/PLK-/,
    );
  });
  it('gives the account number for bank transfers here too, with a copy button and, in the sandbox, a test transfer', async () => {
    await signIn(server(), { fullname: 'Adaeze Okafor' });
    const person = userEvent.setup();
    render(withClient(<TopUpPage />));

    const card = await screen.findByRole('region', { name: 'Top up by bank transfer' });
    await person.click(await within(card).findByRole('button', { name: 'Get my account number' }));
    const number = await within(card).findByText(/^\d{10}$/);
    expect(within(card).getByText('PLUCKERS/ADAEZE OKAFOR')).toBeTruthy();
    expect(within(card).getByText('Pluckers Sandbox Bank')).toBeTruthy();
    expect(within(card).getByText(/Transfers usually arrive within a minute/)).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Copy the account number' })).toBeTruthy();
    const test = within(card).getByRole('link', { name: 'Send a test transfer' });
    expect(test.getAttribute('href')).toBe(
      `/api/v1/payment/sandbox/transfer?account=${number.textContent}`,
    );
  });
});
