import { describe, expect, it, onTestFinished } from 'vitest';
import { signSandboxWebhook } from '../../providers/payments/sandbox.ts';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser } from '../../test/factories.ts';
import {
  balanceOf,
  notificationTitles,
  reviewSandboxTopUpsOf,
  walletEntryCount,
} from '../../test/fake-money.ts';
import { topUpFlow } from '../../test/top-ups.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

/**
 * Without credentials a method runs in sandbox mode: the server's own checkout page, whose Pay
 * and Cancel buttons drive the same signed webhook and callback path as a live provider.
 */
const database = testDatabasePerFile({ alone: true });
const PUBLIC_URL = 'http://localhost:3999';

const fileApp = testAppPerFile(database, { PUBLIC_URL });

async function setup() {
  const app = fileApp();
  const user = await createUser(app.db);
  onTestFinished(() => reviewSandboxTopUpsOf(app.db, user.id));
  const headers = await bearerFor(app, user);
  const flow = topUpFlow(app, headers, PUBLIC_URL);
  const topUp = (amount: number, method = 'transactpay') => flow.start(amount, method);
  const press = (paymentUrl: string, button: 'pay' | 'cancel') =>
    app.inject({
      method: 'POST',
      url: `${new URL(paymentUrl).pathname}/${button}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
  const follow = async (location: string) => {
    const response = await app.inject({ url: location });
    expect(response.statusCode).toBe(302);
    return new URL(String(response.headers.location), PUBLIC_URL);
  };
  return { app, user, headers, topUp, press, follow, row: flow.row };
}

describe('sandbox checkout', () => {
  for (const method of ['transactpay', 'paystack', 'flutterwave'] as const) {
    it(`${method}: Pay credits the wallet once through the webhook and shows success`, async () => {
      const { app, user, topUp, press, follow, row } = await setup();
      const { paymentUrl, reference } = await topUp(2500, method);
      expect(paymentUrl).toBe(
        `${PUBLIC_URL}/api/v1/payment/sandbox/${method}/${encodeURIComponent(reference)}`,
      );
      expect(await row(reference)).toMatchObject({ status: 'PENDING', mode: 'sandbox' });

      const page = await app.inject({ url: new URL(paymentUrl).pathname });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('SANDBOX: no real money moves');
      expect(page.body).toContain('₦2,500');
      expect(page.body).toContain(reference);

      const paid = await press(paymentUrl, 'pay');
      expect(paid.statusCode).toBe(303);
      // The webhook already credited the wallet before the browser comes back.
      expect(await balanceOf(app.db, user.id)).toBe(250_000n);
      const status = await follow(String(paid.headers.location));
      expect(status.pathname).toBe('/PaymentStatus');
      expect(status.searchParams.get('status')).toBe('success');
      expect(status.searchParams.get('message')).toBe('₦2,500 has been added to your wallet');

      // Pressing Pay again (back button) changes nothing.
      await press(paymentUrl, 'pay');
      expect(await balanceOf(app.db, user.id)).toBe(250_000n);
      expect(await walletEntryCount(app.db, user.id)).toBe(1);
      const closed = await app.inject({ url: new URL(paymentUrl).pathname });
      expect(closed.body).toContain('This checkout is already paid.');
      expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
    });
  }

  it('Cancel fails the payment, credits nothing and shows the failure page', async () => {
    const { app, user, topUp, press, follow, row } = await setup();
    const { paymentUrl, reference } = await topUp(1000);
    const cancelled = await press(paymentUrl, 'cancel');
    const status = await follow(String(cancelled.headers.location));
    expect(status.searchParams.get('status')).toBe('failed');
    expect(status.searchParams.get('message')).toBe('Payment was cancelled');
    expect((await row(reference))?.status).toBe('FAILED');
    // Pay after Cancel does nothing.
    await press(paymentUrl, 'pay');
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    expect(await notificationTitles(app.db, user.id)).toEqual(['Top-up failed']);
  });

  it('many Pay presses at once still credit once', async () => {
    const { app, user, topUp, press } = await setup();
    const { paymentUrl } = await topUp(1500);
    await Promise.all(Array.from({ length: 10 }, () => press(paymentUrl, 'pay')));
    expect(await balanceOf(app.db, user.id)).toBe(150_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(1);
  });

  it('refuses a sandbox webhook signed with the wrong secret', async () => {
    const { app, user, topUp } = await setup();
    const { reference } = await topUp(1000);
    const body = JSON.stringify({ event: 'charge.success', reference });
    const forged = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook/transactpay',
      headers: {
        'content-type': 'application/json',
        'x-pluckers-sandbox-signature': signSandboxWebhook(new Uint8Array(32), body),
      },
      payload: body,
    });
    expect(forged.statusCode).toBe(401);
    // Even a correctly signed webhook only credits what the sandbox order says: still pending.
    const signed = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook/transactpay',
      headers: {
        'content-type': 'application/json',
        'x-pluckers-sandbox-signature': signSandboxWebhook(app.secrets.sandbox, body),
      },
      payload: body,
    });
    expect(signed.statusCode).toBe(200);
    expect(await balanceOf(app.db, user.id)).toBe(0n);
  });

  it('has no sandbox page for unknown references', async () => {
    const { app } = await setup();
    const response = await app.inject({ url: '/api/v1/payment/sandbox/transactpay/PLK-NOPE' });
    expect(response.statusCode).toBe(404);
  });
});
