import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEvents } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser, type TestClock, testClock } from '../../test/factories.ts';
import {
  balanceOf,
  ledgerTransactionsFor,
  notificationsTitled,
  notificationTitles,
  walletEntryCount,
} from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { type FakeTransactPay, startFakeTransactPay } from '../../test/fake-transactpay.ts';
import { topUpFlow, type WebhookDelivery } from '../../test/top-ups.ts';
import { checkLedger } from '../wallet/ledger-check.ts';
import { settlePayment } from './service.ts';

/**
 * Webhooks and the other ways a payment gets settled (callback, reconciliation), against fake
 * providers: a payment credits exactly once, only what the provider verified, whatever arrives
 * in whatever order and however often.
 */
const database = testDatabasePerFile();
let paystack: FakePaystack;
let transactpay: FakeTransactPay;
beforeAll(async () => {
  [paystack, transactpay] = await Promise.all([startFakePaystack(), startFakeTransactPay()]);
});
afterAll(async () => {
  await Promise.all([paystack.close(), transactpay.close()]);
});

const providersEnv = () => ({ ...paystack.env, ...transactpay.env });
/** The app of the tests that need no clock of their own. */
const fileApp = testAppPerFile(database, providersEnv);

/** A player on the file's app, or on an app of the test's own when it brings a clock. */
async function setup(options: { clock?: TestClock } = {}) {
  const app = options.clock
    ? await buildTestApp(database(), providersEnv(), { clock: options.clock })
    : fileApp();
  const user = await createUser(app.db);
  const headers = await bearerFor(app, user);
  const flow = topUpFlow(app, headers);
  const topUp = async (amount: number, method: 'paystack' | 'transactpay' = 'paystack') =>
    (await flow.start(amount, method)).reference;
  const deliver = (delivery: WebhookDelivery, method = 'paystack') =>
    flow.deliver(method, delivery);
  const callback = (reference: string) =>
    app.inject({ url: `/api/v1/payment/callback/paystack?reference=${reference}` });
  return { app, user, topUp, deliver, callback, status: flow.row };
}

describe('payment webhooks', () => {
  it('refuses a forged signature with 401 and credits nothing', async () => {
    const { app, user, topUp, deliver, status } = await setup();
    const reference = await topUp(5000);
    paystack.markPaid(reference);
    const genuine = paystack.chargeWebhook(reference);

    const attempts = [
      // Signed with another secret.
      {
        ...genuine,
        headers: {
          ...genuine.headers,
          'x-paystack-signature': createHmac('sha512', 'sk_test_not_ours')
            .update(genuine.body)
            .digest('hex'),
        },
      },
      // No signature at all.
      { body: genuine.body, headers: { 'content-type': 'application/json' } },
      // The genuine signature on a body that was changed.
      {
        body: genuine.body.replace('"charge.success"', '"charge.success" '),
        headers: genuine.headers,
      },
      // The genuine signature with junk after it (a lenient hex parser would stop at the junk).
      {
        body: genuine.body,
        headers: {
          ...genuine.headers,
          'x-paystack-signature': `${genuine.headers['x-paystack-signature']}zz`,
        },
      },
      // A truncated signature.
      {
        body: genuine.body,
        headers: {
          ...genuine.headers,
          'x-paystack-signature': genuine.headers['x-paystack-signature']?.slice(0, 64) ?? '',
        },
      },
    ];
    for (const attempt of attempts) {
      const response = await deliver(attempt);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        message: 'Invalid signature',
        statusCode: 401,
        code: 'UNAUTHORIZED',
      });
    }
    expect((await status(reference))?.status).toBe('PENDING');
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    const events = await app.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.reference, reference));
    expect(events).toEqual([]);

    // The genuine delivery still works afterwards.
    expect((await deliver(genuine)).statusCode).toBe(200);
    expect(await balanceOf(app.db, user.id)).toBe(500_000n);
  });

  it('credits once when the same webhook arrives 20 times at once', async () => {
    const { app, user, topUp, deliver, status } = await setup();
    const reference = await topUp(2500);
    paystack.markPaid(reference);
    const delivery = paystack.chargeWebhook(reference);
    const responses = await Promise.all(Array.from({ length: 20 }, () => deliver(delivery)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));

    expect((await status(reference))?.status).toBe('SUCCESS');
    expect(await balanceOf(app.db, user.id)).toBe(250_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(1);
    expect(await ledgerTransactionsFor(app.db, `topup:paystack:${reference}`)).toHaveLength(1);
    expect(await notificationsTitled(app.db, user.id, 'Top-up successful')).toHaveLength(1);
    const events = await app.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.reference, reference));
    expect(events).toHaveLength(1);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('credits once when webhooks and the browser callback race', async () => {
    const { app, user, topUp, deliver, callback, status } = await setup();
    const references = await Promise.all([topUp(1000), topUp(2000), topUp(3000)]);
    for (const reference of references) paystack.markPaid(reference);
    await Promise.all(
      references.flatMap((reference) => [
        ...Array.from({ length: 5 }, () => deliver(paystack.chargeWebhook(reference))),
        ...Array.from({ length: 5 }, () => callback(reference)),
      ]),
    );
    for (const reference of references) expect((await status(reference))?.status).toBe('SUCCESS');
    expect(await balanceOf(app.db, user.id)).toBe(600_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(3);
    expect(await notificationsTitled(app.db, user.id, 'Top-up successful')).toHaveLength(3);
    // Every late callback shows the success page.
    for (const reference of references) {
      const page = await callback(reference);
      expect(String(page.headers.location)).toContain('status=success');
    }
  });

  it('credits nothing when the verified amount or currency differs, and says why', async () => {
    const { app, user, topUp, deliver, callback, status } = await setup();
    const underpaid = await topUp(1000);
    paystack.markPaid(underpaid, { amount: 99_999 });
    // The webhook body itself claims the right amount; only the verified answer counts.
    const delivery = paystack.chargeWebhook(underpaid);
    await deliver({ ...delivery });
    expect(await status(underpaid)).toMatchObject({
      status: 'FAILED',
      failureReason: 'The amount paid did not match the top-up; contact support',
    });

    const overpaid = await topUp(1000);
    paystack.markPaid(overpaid, { amount: 100_001 });
    await deliver(paystack.chargeWebhook(overpaid));
    expect((await status(overpaid))?.status).toBe('FAILED');

    const otherCurrency = await topUp(1000);
    paystack.markPaid(otherCurrency, { currency: 'USD' });
    await deliver(paystack.chargeWebhook(otherCurrency));
    expect((await status(otherCurrency))?.status).toBe('FAILED');

    const page = await callback(otherCurrency);
    expect(String(page.headers.location)).toBe(
      `/PaymentStatus?status=failed&message=${encodeURIComponent('The amount paid did not match the top-up; contact support')}&reference=${otherCurrency}`,
    );
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    expect(await walletEntryCount(app.db, user.id)).toBe(0);
    expect(await notificationsTitled(app.db, user.id, 'Top-up failed')).toHaveLength(3);
  });

  it('TransactPay: the unsigned webhook credits only after verify says Successful', async () => {
    const { app, user, topUp, deliver, status } = await setup();
    const reference = await topUp(4000, 'transactpay');
    await deliver(transactpay.webhook(reference), 'transactpay');
    expect((await status(reference))?.status).toBe('PENDING');
    transactpay.markPaid(reference);
    await Promise.all(
      Array.from({ length: 10 }, () => deliver(transactpay.webhook(reference), 'transactpay')),
    );
    expect((await status(reference))?.status).toBe('SUCCESS');
    expect(await balanceOf(app.db, user.id)).toBe(400_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(1);
  });

  it('ignores events other than charge.success and webhooks for unknown methods', async () => {
    const { app, deliver } = await setup();
    const body = JSON.stringify({ event: 'subscription.create', data: { reference: 'x' } });
    const ignored = await deliver({
      body,
      headers: { 'content-type': 'application/json', 'x-paystack-signature': paystack.sign(body) },
    });
    expect(ignored.json()).toEqual({ message: 'Ignored' });
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook/bitcoin',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('a charge the provider reports paid after we failed it is still credited, once', async () => {
    const { app, user, topUp, deliver, callback, status } = await setup();
    const reference = await topUp(1500);
    // First card declined: the callback marks the payment FAILED...
    paystack.markFailed(reference, 'Declined');
    await callback(reference);
    expect((await status(reference))?.status).toBe('FAILED');
    // ...then the customer pays with another card on the same checkout.
    paystack.markPaid(reference);
    await Promise.all(Array.from({ length: 5 }, () => deliver(paystack.chargeWebhook(reference))));
    expect(await status(reference)).toMatchObject({ status: 'SUCCESS', failureReason: null });
    expect(await balanceOf(app.db, user.id)).toBe(150_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(1);
    expect(await notificationTitles(app.db, user.id)).toEqual([
      'Top-up failed',
      'Top-up successful',
    ]);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });
});

describe('payment reconciliation', () => {
  it('settles a PENDING payment whose webhook never came once it is 5 minutes old', async () => {
    const clock = testClock();
    const { app, user, topUp, status } = await setup({ clock });
    const paid = await topUp(1200);
    const declined = await topUp(800);
    const unpaid = await topUp(900);
    paystack.markPaid(paid);
    paystack.markFailed(declined, 'Do Not Honor');

    // Too fresh: the customer may still be on the checkout page.
    await app.jobs.runDue();
    expect((await status(paid))?.status).toBe('PENDING');

    clock.advance(6 * 60_000);
    await app.jobs.runDue();
    expect((await status(paid))?.status).toBe('SUCCESS');
    expect(await status(declined)).toMatchObject({
      status: 'FAILED',
      failureReason: 'Do Not Honor',
    });
    // Still open at Paystack ("abandoned" until paid): it stays pending.
    expect((await status(unpaid))?.status).toBe('PENDING');
    expect(await balanceOf(app.db, user.id)).toBe(120_000n);

    // The customer pays later: the next check (after its backoff) credits it.
    paystack.markPaid(unpaid);
    await app.jobs.runDue();
    expect((await status(unpaid))?.status).toBe('PENDING');
    clock.advance(2 * 60_000);
    await app.jobs.runDue();
    expect((await status(unpaid))?.status).toBe('SUCCESS');
    expect(await balanceOf(app.db, user.id)).toBe(210_000n);

    // Running again changes nothing.
    clock.advance(60 * 60_000);
    await app.jobs.runDue();
    expect(await balanceOf(app.db, user.id)).toBe(210_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(2);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('gives up on a checkout nobody paid within a day', async () => {
    const { app, user, topUp, status } = await setup();
    const reference = await topUp(700);
    const later = (hours: number) => ({
      db: app.db,
      providers: app.paymentProviders,
      publicUrl: 'http://localhost',
      now: () => new Date(Date.now() + hours * 3_600_000),
    });
    expect((await settlePayment(later(23), reference)).status).toBe('PENDING');
    expect(await settlePayment(later(25), reference)).toEqual({
      status: 'FAILED',
      message: 'The payment was not completed in time',
    });
    expect((await status(reference))?.failureReason).toBe('The payment was not completed in time');
    expect(await notificationTitles(app.db, user.id)).toEqual(['Top-up failed']);
  });

  it('keeps reconciling the others when the provider cannot answer about one payment', async () => {
    const clock = testClock();
    const { app, user, topUp, status } = await setup({ clock });
    const first = await topUp(1000);
    const second = await topUp(1000);
    // Paystack loses the first (it answers "Transaction reference not found").
    paystack.transactions.delete(first);
    paystack.markPaid(second);
    clock.advance(6 * 60_000);
    await app.jobs.runDue();
    expect((await status(first))?.status).toBe('PENDING');
    expect((await status(second))?.status).toBe('SUCCESS');
    expect(await balanceOf(app.db, user.id)).toBe(100_000n);
  });

  it('never lets the sandbox judge a live payment (or the other way round)', async () => {
    const { app, user, topUp, status } = await setup();
    const reference = await topUp(1000);
    paystack.markPaid(reference);
    // The same database, now served by an app with no provider at all (sandbox mode).
    const sandboxApp = await buildTestApp(database());
    const outcome = await sandboxApp
      .inject({ url: `/api/v1/payment/callback/paystack?reference=${reference}` })
      .then((r) => String(r.headers.location));
    expect(outcome).toContain('status=pending');
    expect((await status(reference))?.status).toBe('PENDING');
    // The live app still settles it.
    await app.inject({ url: `/api/v1/payment/callback/paystack?reference=${reference}` });
    expect((await status(reference))?.status).toBe('SUCCESS');
    expect(await balanceOf(app.db, user.id)).toBe(100_000n);
  });
});
