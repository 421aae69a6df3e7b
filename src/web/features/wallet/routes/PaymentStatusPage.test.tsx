import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { getSession, setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { finishCheckout, signIn } from '../../../test/player.tsx';
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
  setPageUrl(`${server().origin}/PaymentStatus${query}`);
  return render(<PaymentStatusPage />);
}

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

  it('reads "Payment Failed" with the message for any other status', async () => {
    await open(`?status=failed&message=${encodeURIComponent('The payment was not completed')}`);
    expect(heading()).toBe('Payment Failed');
    expect(screen.getByText('The payment was not completed')).toBeTruthy();
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

  it('shows a failure message as one bounded line of plain text', async () => {
    const long = `Declined\n\u202Ereversed ${'x'.repeat(1000)}`;
    await open(`?status=failed&message=${encodeURIComponent(long)}`);
    const text = screen.getByText(/^Declined reversed x+…$/).textContent ?? '';
    expect(Array.from(text)).toHaveLength(200);
  });

  it('renders the message as text, never as HTML', async () => {
    const hostile = '<img src=x onerror="alert(1)"><b>Click here</b>';
    const { container } = await open(`?status=failed&message=${encodeURIComponent(hostile)}`);
    expect(screen.getByText(hostile)).toBeTruthy();
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
    render(<PaymentStatusPage />);

    expect(heading()).toBe('Payment Successful');
    await waitFor(() => expect(getSession().user?.accountBalance).toBe(1500));
  });
});
