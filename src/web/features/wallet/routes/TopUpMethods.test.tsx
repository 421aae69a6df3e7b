import { PAYMENT_MESSAGES } from '@shared/messages.ts';
import { cleanup, render, screen } from '@testing-library/react';
import { loadPaymentModes } from '@web/lib/payment-modes.ts';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { signIn, withClient } from '../testing.tsx';
import { TopUpPage } from './TopUpPage.tsx';

/**
 * The top-up form offers what the server runs (GET /payment/methods), never an unavailable
 * method. Paystack's key here is never used: listing the methods asks no provider anything.
 */
const paystackOnly = testServerPerFile({
  PAYSTACK_SECRET_KEY: 'sk_test_never_called',
  PAYSTACK_BASE_URL: 'http://127.0.0.1:9',
});
const nothing = testServerPerFile({ PAYMENTS_SANDBOX: 'false' });

afterEach(() => {
  cleanup();
  setUser(null);
  setSettings(null);
});

describe('top-up methods', () => {
  it('offers only Paystack when TransactPay is not configured, and picks it', async () => {
    setPageUrl(`${paystackOnly().origin}/TopUp`);
    await loadPaymentModes();
    await signIn(paystackOnly());
    render(withClient(<TopUpPage />));

    const method = screen.getByLabelText('Payment method') as HTMLSelectElement;
    expect([...method.options].map((option) => option.text)).toEqual(['Paystack']);
    expect(method.value).toBe('paystack');
  });

  it('shows a clear message instead of the form when no method is available', async () => {
    setPageUrl(`${nothing().origin}/TopUp`);
    await loadPaymentModes();
    await signIn(nothing());
    render(withClient(<TopUpPage />));

    expect(screen.getByText(PAYMENT_MESSAGES.noneAvailable).getAttribute('role')).toBe('status');
    expect(screen.queryByLabelText('Payment method')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Top up' })).toBeNull();
  });
});
