import { PAYMENT_MESSAGES } from '@shared/messages.ts';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loadPaymentModes } from '@web/lib/payment-modes.ts';
import { setSettings, setUser } from '@web/lib/session.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestServer, testServerPerFile } from '../../../../test/server.ts';
import { setPageUrl } from '../../../test/browser.ts';
import { signIn, withClient } from '../../../test/player.tsx';
import { TopUpPage } from './TopUpPage.tsx';

/**
 * The top-up form offers what the server runs (GET /payment/methods), never an unavailable
 * method. Paystack's key here is never used: listing the methods asks no provider anything.
 * Each server is leased by the block of the test that uses it, so the file holds one at a time.
 */
/** The Top up page, signed in, on `server` and with the payment methods it says it runs. */
async function openTopUp(server: TestServer): Promise<void> {
  setPageUrl(`${server.origin}/TopUp`);
  await loadPaymentModes();
  await signIn(server);
  render(withClient(<TopUpPage />));
}

afterEach(() => {
  cleanup();
  setUser(null);
  setSettings(null);
});

describe('top-up methods', () => {
  describe('a server with Paystack only', () => {
    const paystackOnly = testServerPerFile({
      PAYSTACK_SECRET_KEY: 'sk_test_never_called',
      PAYSTACK_BASE_URL: 'http://127.0.0.1:9',
    });

    it('offers only Paystack when TransactPay is not configured, and picks it', async () => {
      await openTopUp(paystackOnly());

      const method = screen.getByLabelText('Payment method') as HTMLSelectElement;
      expect([...method.options].map((option) => option.text)).toEqual(['Paystack']);
      expect(method.value).toBe('paystack');
    });
  });

  describe('a server with Paystack and Flutterwave', () => {
    const flutterwaveAndPaystack = testServerPerFile({
      PAYSTACK_SECRET_KEY: 'sk_test_never_called',
      PAYSTACK_BASE_URL: 'http://127.0.0.1:9',
      FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-never-called-X',
      FLUTTERWAVE_WEBHOOK_HASH: 'never-checked',
      FLUTTERWAVE_BASE_URL: 'http://127.0.0.1:9',
    });

    it('offers Flutterwave beside Paystack when both are configured, and keeps the choice', async () => {
      const person = userEvent.setup();
      await openTopUp(flutterwaveAndPaystack());

      const method = screen.getByLabelText('Payment method') as HTMLSelectElement;
      expect([...method.options].map((option) => [option.value, option.text])).toEqual([
        ['paystack', 'Paystack'],
        ['flutterwave', 'Flutterwave'],
      ]);
      expect(method.value).toBe('paystack');
      await person.selectOptions(method, 'flutterwave');
      expect(method.value).toBe('flutterwave');
    });
  });

  describe('a server running the payments sandbox', () => {
    const sandbox = testServerPerFile();

    it('offers every method, Flutterwave included, when the server runs the sandbox', async () => {
      await openTopUp(sandbox());

      const method = screen.getByLabelText('Payment method') as HTMLSelectElement;
      expect([...method.options].map((option) => option.text)).toEqual([
        'TransactPay',
        'Paystack',
        'Flutterwave',
      ]);
      expect(method.value).toBe('transactpay');
    });
  });

  describe('a server with no payment method', () => {
    const nothing = testServerPerFile({ PAYMENTS_SANDBOX: 'false' });

    it('shows a clear message instead of the form when no method is available', async () => {
      await openTopUp(nothing());

      expect(screen.getByText(PAYMENT_MESSAGES.noneAvailable).getAttribute('role')).toBe('status');
      expect(screen.queryByLabelText('Payment method')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Top up' })).toBeNull();
    });
  });
});
