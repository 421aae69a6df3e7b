import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { getSession, setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { finishCheckout, signIn, withClient } from '../../../test/player.tsx';
import {
  PAYMENT_PENDING_DEFAULT,
  PAYMENT_SUCCESS_TEXT,
  PaymentStatusPage,
} from './PaymentStatusPage.tsx';

const server = testServerPerFile();

afterEach(() => {
  // Unmount first: a mounted wallet would reload the settings it just lost.
  cleanup();
  setUser(null);
  setSettings(null);
});

/** A signed-in player lands on /PaymentStatus with this query, as the checkout sends them. */
async function open(query: string) {
  setPageUrl(`${server().origin}/Home`);
  await signIn(server());
  return show(query);
}

/** The page for the player already signed in. */
function show(query: string) {
  setPageUrl(`${server().origin}/PaymentStatus${query}`);
  return render(withClient(<PaymentStatusPage />));
}

/** A top-up of the signed-in player through the sandbox, left open or finished with a button. */
async function topUp(token: string, amount: number, button?: 'pay' | 'cancel') {
  const started = await fetch('/api/v1/payment/paystack', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ amount }),
  });
  expect(started.status).toBe(200);
  const { data } = (await started.json()) as { data: { paymentUrl: string; reference: string } };
  if (button) await finishCheckout(data.paymentUrl, button);
  return data.reference;
}

/** The sentence a message in a link tries to put under the heading. */
const SCAM = 'Your wallet of ₦2,400,000 is frozen. Call +234 803 123 4567 to release it';

function heading() {
  return screen.getByRole('heading', { level: 1 }).textContent;
}

describe('PaymentStatusPage (docs/product.md#screens)', () => {
  it.each(['?status=success', '?status=successful', '?status=SUCCESS', '?status=Successful'])(
    '%s reads "Payment Successful"',
    async (query) => {
      await open(query);
      expect(heading()).toBe('Payment Successful');
      expect(screen.queryByText('Payment Failed')).toBeNull();
    },
  );

  it('never shows the query message under a success: anyone can write that link', async () => {
    const claim = '₦5,000,000 has been added. Call 0803 123 4567 to claim your bonus';
    const { container } = await open(`?status=success&message=${encodeURIComponent(claim)}`);
    expect(heading()).toBe('Payment Successful');
    expect(container.textContent).not.toContain('5,000,000');
    expect(screen.getByText(PAYMENT_SUCCESS_TEXT)).toBeTruthy();
  });

  it('never shows the message parameter: a failure without a payment reads the fixed text', async () => {
    const { container } = await open(`?status=failed&message=${encodeURIComponent(SCAM)}`);
    expect(heading()).toBe('Payment Failed');
    expect(
      screen.getByText('Something went wrong with your payment. Please try again.'),
    ).toBeTruthy();
    expect(container.textContent).not.toContain('2,400,000');
  });

  it('shows the server’s status and reason for the payment the reference names', async () => {
    setPageUrl(`${server().origin}/TopUp`);
    const { token } = await signIn(server());
    const reference = await topUp(token, 1200, 'cancel');
    // The link claims a success and brings its own words: the server's answer decides both.
    const { container } = show(
      `?status=success&reference=${reference}&message=${encodeURIComponent(SCAM)}`,
    );
    await screen.findByText('Payment was cancelled');
    expect(heading()).toBe('Payment Failed');
    expect(container.textContent).not.toContain('2,400,000');
    expect(container.textContent).not.toContain(PAYMENT_SUCCESS_TEXT);
  });

  it('shows what landed for a paid reference, and that a payment left open is still confirming', async () => {
    setPageUrl(`${server().origin}/TopUp`);
    const { token } = await signIn(server());
    const paid = await topUp(token, 1700, 'pay');
    const { unmount } = show(`?status=failed&reference=${paid}`);
    await screen.findByText('₦1,700 has been added to your wallet');
    expect(heading()).toBe('Payment Successful');
    unmount();

    const open = await topUp(token, 900);
    show(`?status=failed&reference=${open}&message=${encodeURIComponent(SCAM)}`);
    await screen.findByText(
      'Your payment is still being confirmed. We will notify you when it lands.',
    );
    expect(heading()).toBe('Confirming your payment');
  });

  it('answers a reference that is not the player’s with the fixed text of the status', async () => {
    setPageUrl(`${server().origin}/TopUp`);
    const owner = await signIn(server());
    const theirs = await topUp(owner.token, 1300, 'cancel');
    await signIn(server());
    for (const reference of [theirs, 'PLK-NO-SUCH-PAYMENT']) {
      const { container, unmount } = show(
        `?status=failed&reference=${reference}&message=${encodeURIComponent(SCAM)}`,
      );
      await screen.findByText('Something went wrong with your payment. Please try again.');
      expect(heading()).toBe('Payment Failed');
      expect(container.textContent).not.toContain('cancelled');
      expect(container.textContent).not.toContain('2,400,000');
      unmount();
    }
  });

  it.each([
    '?status=failed',
    '?status=cancelled',
    '?status=abandoned&message=',
    '?status=nonsense&message=%20%20',
  ])('%s falls back to the default failure text', async (query) => {
    await open(query);
    expect(heading()).toBe('Payment Failed');
    expect(
      screen.getByText('Something went wrong with your payment. Please try again.'),
    ).toBeTruthy();
  });

  it('says a pending payment is still being confirmed, in its own words', async () => {
    const { container } = await open(
      `?status=pending&message=${encodeURIComponent('Pending: send ₦2,000 to 0123456789 to release it')}`,
    );
    expect(heading()).toBe('Confirming your payment');
    expect(screen.getByText(PAYMENT_PENDING_DEFAULT)).toBeTruthy();
    expect(container.textContent).not.toContain('0123456789');
    expect(screen.queryByText('Payment Failed')).toBeNull();
  });

  it('never renders markup from the link', async () => {
    const hostile = '<img src=x onerror="alert(1)"><b>Click here</b>';
    const { container } = await open(`?status=failed&message=${encodeURIComponent(hostile)}`);
    expect(container.textContent).not.toContain('Click here');
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
  });

  it('offers Go To Wallet, leading to /topup', async () => {
    for (const query of ['?status=success', '?status=failed', '?status=pending']) {
      const { unmount } = await open(query);
      expect(screen.getByRole('link', { name: 'Go To Wallet' }).getAttribute('href')).toBe(
        '/topup',
      );
      unmount();
    }
  });

  it.each(['', '?message=Paid', '?status=', '?status=%20'])(
    'redirects to / when there is no status (%j)',
    async (query) => {
      const { container } = await open(query);
      await waitFor(() => expect(window.location.pathname).toBe('/'));
      expect(container.textContent).not.toContain('Payment');
    },
  );

  it('after a success, reloads the user so the balance in the nav is the new one', async () => {
    setPageUrl(`${server().origin}/TopUp`);
    const { token, user } = await signIn(server());
    expect(user.accountBalance).toBe(0);
    const started = await fetch('/api/v1/payment/paystack', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 1500 }),
    });
    const { data } = (await started.json()) as { data: { paymentUrl: string } };
    await finishCheckout(data.paymentUrl);
    expect(getSession().user?.accountBalance).toBe(0);

    setPageUrl(`${server().origin}/PaymentStatus?status=success&message=paid`);
    render(withClient(<PaymentStatusPage />));

    expect(heading()).toBe('Payment Successful');
    await waitFor(() => expect(getSession().user?.accountBalance).toBe(1500));
  });
});
