import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser } from '../../test/factories.ts';
import {
  balanceOf,
  ledgerTransactionsFor,
  notificationTitles,
  walletEntryCount,
} from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { topUpFlow } from '../../test/top-ups.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

/** The Paystack adapter against a local server that speaks Paystack's documented API. */
const database = testDatabasePerFile();
let paystack: FakePaystack;
beforeAll(async () => {
  paystack = await startFakePaystack();
});
afterAll(() => paystack.close());

const PUBLIC_URL = 'https://pluckers.test';

/** The app of the tests with this configuration (all but the one with a wrong key). */
const fileApp = testAppPerFile(database, () => ({ ...paystack.env, PUBLIC_URL }));

async function setup() {
  const app = fileApp();
  const user = await createUser(app.db);
  const headers = await bearerFor(app, user);
  const flow = topUpFlow(app, headers, PUBLIC_URL);
  const topUp = (amount: number) => flow.start(amount, 'paystack');
  const callback = (reference: string, query = 'reference') =>
    flow.callback(`paystack?${query}=${encodeURIComponent(reference)}`);
  return { app, user, headers, topUp, callback, paymentRow: flow.row };
}

describe('Paystack adapter', () => {
  it('initialises a checkout with the Bearer secret and kobo amount, and returns authorization_url', async () => {
    const { user, topUp, paymentRow } = await setup();
    const { paymentUrl, reference } = await topUp(2500);

    const transaction = paystack.transactions.get(reference);
    expect(transaction).toMatchObject({ amount: 250_000, currency: 'NGN', email: user.email });
    expect(transaction?.callbackUrl).toBe(`${PUBLIC_URL}/api/v1/payment/callback/paystack`);
    expect(paymentUrl).toMatch(/^https:\/\/checkout\.paystack\.com\/[0-9a-f]+$/);
    const request = paystack.requests.find(
      (r) =>
        r.path === '/transaction/initialize' &&
        (r.body as { reference?: string }).reference === reference,
    );
    expect(request?.authorization).toBe(`Bearer ${paystack.secretKey}`);
    // Paystack wants the amount as an integer count of kobo.
    expect((request?.body as { amount?: string } | undefined)?.amount).toBe('250000');

    expect(await paymentRow(reference)).toMatchObject({
      status: 'PENDING',
      amount: 250_000n,
      method: 'paystack',
      mode: 'live',
    });
  });

  it('refuses a top-up under the minimum without calling Paystack', async () => {
    const { app, headers } = await setup();
    const before = paystack.requests.length;
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/paystack',
      headers,
      payload: { amount: 99 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The minimum top-up is ₦100');
    expect(paystack.requests.length).toBe(before);
  });

  it('verifies on the callback: unpaid stays pending, paid credits once with a notification', async () => {
    const { app, user, headers, topUp, callback, paymentRow } = await setup();
    const { reference } = await topUp(1500);

    // Paystack calls an unpaid checkout "abandoned"; the customer may still pay it.
    const early = await callback(reference);
    expect(early.status).toBe('pending');
    expect((await paymentRow(reference))?.status).toBe('PENDING');
    expect(await balanceOf(app.db, user.id)).toBe(0n);

    paystack.markPaid(reference);
    // Paystack appends both `trxref` and `reference`; either is enough.
    const paid = await callback(reference, 'trxref');
    expect(paid).toEqual({ status: 'success', message: '₦1,500 has been added to your wallet' });
    const again = await callback(reference);
    expect(again.status).toBe('success');

    expect(await balanceOf(app.db, user.id)).toBe(150_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(1);
    expect(await ledgerTransactionsFor(app.db, `topup:paystack:${reference}`)).toHaveLength(1);
    expect(await notificationTitles(app.db, user.id)).toEqual(['Top-up successful']);
    const verifies = paystack.requests.filter((r) => r.path === `/transaction/verify/${reference}`);
    expect(verifies.every((r) => r.authorization === `Bearer ${paystack.secretKey}`)).toBe(true);

    const history = await app.inject({ url: '/api/v1/payment?page=1', headers });
    expect(history.json().data.payments).toEqual([
      expect.objectContaining({
        reference,
        amount: 1500,
        paymentMethod: 'paystack',
        status: 'successful',
      }),
    ]);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it("fails a declined payment with Paystack's gateway response and credits nothing", async () => {
    const { app, user, topUp, callback, paymentRow } = await setup();
    const { reference } = await topUp(700);
    paystack.markFailed(reference, 'Insufficient Funds');
    expect(await callback(reference)).toEqual({ status: 'failed', message: 'Insufficient Funds' });
    expect(await paymentRow(reference)).toMatchObject({
      status: 'FAILED',
      failureReason: 'Insufficient Funds',
    });
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    expect(await notificationTitles(app.db, user.id)).toEqual(['Top-up failed']);
  });

  it('answers a callback without a reference or for an unknown one with a failure page', async () => {
    const { app } = await setup();
    const missing = await app.inject({ url: '/api/v1/payment/callback/paystack' });
    expect(String(missing.headers.location)).toBe(
      `/PaymentStatus?status=failed&message=${encodeURIComponent('The payment reference is missing')}`,
    );
    const unknown = await app.inject({
      url: '/api/v1/payment/callback/paystack?reference=PLK-NOPE',
    });
    expect(String(unknown.headers.location)).toContain('status=failed');
  });

  it('reports an unreachable or refusing Paystack clearly and leaves no payment to reconcile', async () => {
    const app = await buildTestApp(database(), {
      PAYSTACK_SECRET_KEY: 'sk_test_wrong_key',
      PAYSTACK_BASE_URL: paystack.url,
    });
    const user = await createUser(app.db);
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/paystack',
      headers: await bearerFor(app, user),
      payload: { amount: 1000 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(
      'The payment provider is not available right now. Please try again shortly.',
    );
    const rows = await app.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(rows).toHaveLength(1);
    // The checkout never opened, so nobody can pay it: it must not sit PENDING for the job.
    expect(rows[0]?.status).toBe('FAILED');
  });
});
