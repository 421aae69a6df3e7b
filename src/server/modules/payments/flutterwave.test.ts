import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, webhookEvents } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser, type TestClock, testClock } from '../../test/factories.ts';
import {
  type Delivery,
  type FakeFlutterwave,
  startFakeFlutterwave,
} from '../../test/fake-flutterwave.ts';
import {
  balanceOf,
  ledgerTransactionsFor,
  notificationsTitled,
  notificationTitles,
  walletEntryCount,
} from '../../test/fake-money.ts';
import { topUpFlow } from '../../test/top-ups.ts';
import { checkLedger } from '../wallet/ledger-check.ts';
import { settlePayment } from './service.ts';

/**
 * The Flutterwave adapter (Flutterwave Standard, v3) against a local server that speaks its
 * documented API: hosted checkout, verification by transaction id, `verif-hash` webhooks that
 * are only a reason to ask, and reconciliation by tx_ref. A payment credits exactly once, and
 * only what Flutterwave verified for our reference.
 */
const database = testDatabasePerFile();
let flutterwave: FakeFlutterwave;
beforeAll(async () => {
  flutterwave = await startFakeFlutterwave();
});
afterAll(() => flutterwave.close());

const PUBLIC_URL = 'https://pluckers.test';

const flutterwaveEnv = () => ({ ...flutterwave.env, PUBLIC_URL });
/** The app of the tests that need no clock or environment of their own. */
const fileApp = testAppPerFile(database, flutterwaveEnv);

/** A player on the file's app, or on an app of the test's own when it brings a clock. */
async function setup(options: { clock?: TestClock } = {}) {
  const app = options.clock
    ? await buildTestApp(database(), flutterwaveEnv(), { clock: options.clock })
    : fileApp();
  const user = await createUser(app.db);
  const headers = await bearerFor(app, user);
  const flow = topUpFlow(app, headers, PUBLIC_URL);
  const topUp = (amount: number, method = 'flutterwave') => flow.start(amount, method);
  /** The browser coming back from the checkout with Flutterwave's query string. */
  const callback = (query: string) => flow.callback(`flutterwave?${query}`);
  const deliver = (delivery: Delivery) => flow.deliver('flutterwave', delivery);
  return { app, user, headers, topUp, callback, deliver, row: flow.row };
}

describe('Flutterwave adapter', () => {
  it('opens a hosted checkout: Bearer secret, naira amount, NGN, tx_ref and redirect_url; returns data.link', async () => {
    const { user, topUp, row } = await setup();
    const { paymentUrl, reference } = await topUp(2500);

    expect(paymentUrl).toMatch(
      /^https:\/\/checkout\.flutterwave\.com\/v3\/hosted\/pay\/[0-9a-f]+$/,
    );
    expect(flutterwave.checkouts.get(reference)).toMatchObject({
      amount: 2500,
      currency: 'NGN',
      email: user.email,
      redirectUrl: `${PUBLIC_URL}/api/v1/payment/callback/flutterwave`,
      link: paymentUrl,
    });
    const request = flutterwave.requests.find(
      (r) => r.path === '/v3/payments' && (r.body as { tx_ref?: string }).tx_ref === reference,
    );
    expect(request?.method).toBe('POST');
    expect(request?.authorization).toBe(`Bearer ${flutterwave.secretKey}`);
    expect(await row(reference)).toMatchObject({
      status: 'PENDING',
      amount: 250_000n,
      method: 'flutterwave',
      mode: 'live',
    });
  });

  it('accepts POST /payment/fultterwave (an existing client spells it so) as Flutterwave', async () => {
    const { app, headers, topUp, row } = await setup();
    const { reference } = await topUp(1000, 'fultterwave');
    expect((await row(reference))?.method).toBe('flutterwave');
    expect(flutterwave.checkouts.has(reference)).toBe(true);

    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/flutterwav',
      headers,
      payload: { amount: 1000 },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Select a payment method');
  });

  it('credits on the return with transaction_id, verified by id, once; later returns show success', async () => {
    const { app, user, headers, topUp, callback, row } = await setup();
    const { reference } = await topUp(1500);
    const paid = flutterwave.attempt(reference);

    expect(await callback(flutterwave.redirectQuery(reference, paid))).toEqual({
      status: 'success',
      message: '₦1,500 has been added to your wallet',
    });
    expect((await callback(flutterwave.redirectQuery(reference, paid))).status).toBe('success');
    const byId = flutterwave.requests.filter(
      (r) => r.path === `/v3/transactions/${paid.id}/verify`,
    );
    expect(byId.length).toBeGreaterThan(0);
    expect(byId.every((r) => r.authorization === `Bearer ${flutterwave.secretKey}`)).toBe(true);

    expect((await row(reference))?.status).toBe('SUCCESS');
    expect(await balanceOf(app.db, user.id)).toBe(150_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(1);
    expect(await ledgerTransactionsFor(app.db, `topup:flutterwave:${reference}`)).toHaveLength(1);
    expect(await notificationTitles(app.db, user.id)).toEqual(['Top-up successful']);
    const history = await app.inject({ url: '/api/v1/payment?page=1', headers });
    expect(history.json().data.payments).toEqual([
      expect.objectContaining({
        reference,
        amount: 1500,
        paymentMethod: 'flutterwave',
        status: 'successful',
      }),
    ]);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it("never believes the browser: a claimed success, or someone else's paid transaction id, credits nothing", async () => {
    const { app, user, topUp, callback, row } = await setup();
    const { reference } = await topUp(5000);
    const other = await topUp(5000);
    const othersPayment = flutterwave.attempt(other.reference);

    // Nothing paid on this checkout, whatever the query says.
    expect(
      (await callback(`status=successful&tx_ref=${reference}&transaction_id=999999999999`)).status,
    ).toBe('pending');
    // A genuine successful transaction, but for another tx_ref.
    expect(
      (await callback(`status=successful&tx_ref=${reference}&transaction_id=${othersPayment.id}`))
        .status,
    ).toBe('pending');
    // Junk where the id goes never reaches Flutterwave's URL.
    expect(
      (await callback(`status=successful&tx_ref=${reference}&transaction_id=..%2F..%2Fpayments`))
        .status,
    ).toBe('pending');
    expect(flutterwave.requests.some((r) => r.path.includes('..'))).toBe(false);

    expect((await row(reference))?.status).toBe('PENDING');
    expect((await row(other.reference))?.status).toBe('PENDING');
    expect(await balanceOf(app.db, user.id)).toBe(0n);
  });

  it("fails a declined payment with Flutterwave's processor response, then credits a second card's payment", async () => {
    const { app, user, topUp, callback, deliver, row } = await setup();
    const { reference } = await topUp(700);
    const declined = flutterwave.attempt(reference, {
      status: 'failed',
      processorResponse: 'Insufficient Funds',
    });
    expect(await callback(flutterwave.redirectQuery(reference, declined))).toEqual({
      status: 'failed',
      message: 'Insufficient Funds',
    });
    expect(await row(reference)).toMatchObject({
      status: 'FAILED',
      failureReason: 'Insufficient Funds',
    });
    expect(await balanceOf(app.db, user.id)).toBe(0n);

    // The declined attempt's webhook arriving late changes nothing.
    await deliver(flutterwave.chargeWebhook(declined));
    expect((await row(reference))?.status).toBe('FAILED');

    const paid = flutterwave.attempt(reference);
    await Promise.all(Array.from({ length: 5 }, () => deliver(flutterwave.chargeWebhook(paid))));
    expect(await row(reference)).toMatchObject({ status: 'SUCCESS', failureReason: null });
    expect(await balanceOf(app.db, user.id)).toBe(70_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(1);
    expect(await notificationTitles(app.db, user.id)).toEqual([
      'Top-up failed',
      'Top-up successful',
    ]);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('keeps an abandoned checkout pending (it can still be paid) and gives up on it after a day', async () => {
    const { app, user, topUp, callback, row } = await setup();
    const { reference } = await topUp(900);
    // Cancelled on the checkout page: Flutterwave returns no transaction_id.
    expect(await callback(flutterwave.redirectQuery(reference, undefined, 'cancelled'))).toEqual({
      status: 'pending',
      message: 'Your payment is still being confirmed. We will notify you when it lands.',
    });
    expect((await row(reference))?.status).toBe('PENDING');

    const later = (hours: number) => ({
      db: app.db,
      providers: app.paymentProviders,
      publicUrl: PUBLIC_URL,
      now: () => new Date(Date.now() + hours * 3_600_000),
    });
    expect((await settlePayment(later(23), reference)).status).toBe('PENDING');
    expect(await settlePayment(later(25), reference)).toEqual({
      status: 'FAILED',
      message: 'The payment was not completed in time',
    });
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    expect(await notificationTitles(app.db, user.id)).toEqual(['Top-up failed']);
  });

  it('reports a refusing Flutterwave (wrong key) clearly and leaves no payment to reconcile', async () => {
    const app = await buildTestApp(database(), {
      ...flutterwave.env,
      FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-not-ours-X',
    });
    const user = await createUser(app.db);
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/flutterwave',
      headers: await bearerFor(app, user),
      payload: { amount: 1000 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      'The payment provider is not available right now. Please try again shortly.',
    );
    const rows = await app.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(rows.map((r) => r.status)).toEqual(['FAILED']);
  });
});

describe('Flutterwave webhooks', () => {
  it('refuses a missing or wrong verif-hash with 401 and records nothing', async () => {
    const { app, user, topUp, deliver, row } = await setup();
    const { reference } = await topUp(5000);
    const genuine = flutterwave.chargeWebhook(flutterwave.attempt(reference));
    const withHash = (hash: string | null): Delivery => {
      const { 'verif-hash': _hash, ...rest } = genuine.headers;
      return {
        body: genuine.body,
        headers: hash === null ? rest : { ...rest, 'verif-hash': hash },
      };
    };
    for (const forged of [
      withHash(null),
      withHash(''),
      withHash('not-the-secret-hash'),
      withHash(`${flutterwave.webhookHash}x`),
      withHash(flutterwave.webhookHash.slice(0, -1)),
      withHash(flutterwave.secretKey),
    ]) {
      const response = await deliver(forged);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        message: 'Invalid signature',
        statusCode: 401,
        code: 'UNAUTHORIZED',
      });
    }
    expect((await row(reference))?.status).toBe('PENDING');
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    expect(
      await app.db.select().from(webhookEvents).where(eq(webhookEvents.reference, reference)),
    ).toEqual([]);

    expect((await deliver(genuine)).statusCode).toBe(200);
    expect(await balanceOf(app.db, user.id)).toBe(500_000n);
  });

  it('re-verifies through the API: a body claiming success for an unpaid checkout credits nothing', async () => {
    const { app, user, topUp, deliver, row } = await setup();
    const { reference } = await topUp(3000);
    // Someone who learnt the hash forges a delivery; Flutterwave itself knows no such payment.
    const body = JSON.stringify({
      event: 'charge.completed',
      data: { id: 123, tx_ref: reference, amount: 3000, currency: 'NGN', status: 'successful' },
    });
    const response = await deliver({
      body,
      headers: { 'content-type': 'application/json', 'verif-hash': flutterwave.webhookHash },
    });
    expect(response.json()).toEqual({ message: 'Received' });
    expect((await row(reference))?.status).toBe('PENDING');
    expect(await balanceOf(app.db, user.id)).toBe(0n);
  });

  it('credits once when the same webhook arrives 20 times at once', async () => {
    const { app, user, topUp, deliver, row } = await setup();
    const { reference } = await topUp(2500);
    const delivery = flutterwave.chargeWebhook(flutterwave.attempt(reference));
    const responses = await Promise.all(Array.from({ length: 20 }, () => deliver(delivery)));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));

    expect((await row(reference))?.status).toBe('SUCCESS');
    expect(await balanceOf(app.db, user.id)).toBe(250_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(1);
    expect(await ledgerTransactionsFor(app.db, `topup:flutterwave:${reference}`)).toHaveLength(1);
    expect(await notificationsTitled(app.db, user.id, 'Top-up successful')).toHaveLength(1);
    expect(
      await app.db.select().from(webhookEvents).where(eq(webhookEvents.reference, reference)),
    ).toHaveLength(1);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('credits once when webhooks and browser returns race', async () => {
    const { app, user, topUp, deliver, callback, row } = await setup();
    const checkouts = await Promise.all([topUp(1000), topUp(2000), topUp(3000)]);
    const paid = checkouts.map(({ reference }) => flutterwave.attempt(reference));
    await Promise.all(
      paid.flatMap((transaction) => [
        ...Array.from({ length: 5 }, () => deliver(flutterwave.chargeWebhook(transaction))),
        ...Array.from({ length: 5 }, () =>
          callback(flutterwave.redirectQuery(transaction.txRef, transaction)),
        ),
      ]),
    );
    for (const { reference } of checkouts) expect((await row(reference))?.status).toBe('SUCCESS');
    expect(await balanceOf(app.db, user.id)).toBe(600_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(3);
    expect(await notificationsTitled(app.db, user.id, 'Top-up successful')).toHaveLength(3);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('credits nothing when the verified amount or currency differs, and says why', async () => {
    const { app, user, topUp, deliver, callback, row } = await setup();
    const mismatch = 'The amount paid did not match the top-up; contact support';
    const underpaid = await topUp(1000);
    // The webhook body carries Flutterwave's own figures; only the verified answer counts.
    await deliver(
      flutterwave.chargeWebhook(flutterwave.attempt(underpaid.reference, { amount: 999.99 })),
    );
    expect(await row(underpaid.reference)).toMatchObject({
      status: 'FAILED',
      failureReason: mismatch,
    });

    const overpaid = await topUp(1000);
    await deliver(
      flutterwave.chargeWebhook(flutterwave.attempt(overpaid.reference, { amount: 1000.01 })),
    );
    expect((await row(overpaid.reference))?.status).toBe('FAILED');

    // Less than a kobo off is still not what was asked for.
    const fraction = await topUp(1000);
    await deliver(
      flutterwave.chargeWebhook(flutterwave.attempt(fraction.reference, { amount: 1000.004 })),
    );
    expect((await row(fraction.reference))?.status).toBe('FAILED');

    const otherCurrency = await topUp(1000);
    const dollars = flutterwave.attempt(otherCurrency.reference, { currency: 'USD' });
    await deliver(flutterwave.chargeWebhook(dollars));
    expect((await row(otherCurrency.reference))?.status).toBe('FAILED');
    expect(await callback(flutterwave.redirectQuery(otherCurrency.reference, dollars))).toEqual({
      status: 'failed',
      message: mismatch,
    });

    expect(await balanceOf(app.db, user.id)).toBe(0n);
    expect(await walletEntryCount(app.db, user.id)).toBe(0);
    expect(await notificationsTitled(app.db, user.id, 'Top-up failed')).toHaveLength(4);
  });

  it('ignores events other than charge.completed', async () => {
    const { deliver } = await setup();
    const body = JSON.stringify({ event: 'transfer.completed', data: { id: 1, reference: 'x' } });
    const response = await deliver({
      body,
      headers: { 'content-type': 'application/json', 'verif-hash': flutterwave.webhookHash },
    });
    expect(response.json()).toEqual({ message: 'Ignored' });
  });
});

describe('Flutterwave reconciliation', () => {
  it('settles by tx_ref a payment whose webhook and return never came, once it is 5 minutes old', async () => {
    const clock = testClock();
    const { app, user, topUp, row } = await setup({ clock });
    const paid = await topUp(1200);
    const declined = await topUp(800);
    const unpaid = await topUp(900);
    flutterwave.attempt(paid.reference);
    flutterwave.attempt(declined.reference, {
      status: 'failed',
      processorResponse: 'Do Not Honor',
    });

    await app.jobs.runDue();
    expect((await row(paid.reference))?.status).toBe('PENDING');

    clock.advance(6 * 60_000);
    await app.jobs.runDue();
    expect((await row(paid.reference))?.status).toBe('SUCCESS');
    expect(await row(declined.reference)).toMatchObject({
      status: 'FAILED',
      failureReason: 'Do Not Honor',
    });
    expect((await row(unpaid.reference))?.status).toBe('PENDING');
    expect(
      flutterwave.requests.some(
        (r) =>
          r.path === '/v3/transactions/verify_by_reference' &&
          r.search === `?tx_ref=${paid.reference}`,
      ),
    ).toBe(true);

    // Paid later: the next check after its backoff credits it; more runs change nothing.
    flutterwave.attempt(unpaid.reference);
    clock.advance(2 * 60_000);
    await app.jobs.runDue();
    expect((await row(unpaid.reference))?.status).toBe('SUCCESS');
    clock.advance(60 * 60_000);
    await app.jobs.runDue();
    expect(await balanceOf(app.db, user.id)).toBe(210_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(2);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });
});
