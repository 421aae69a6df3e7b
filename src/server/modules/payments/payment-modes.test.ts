import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { payments, sandboxOrders } from '../../db/schema.ts';
import { SANDBOX_SIGNATURE_HEADER, signSandboxWebhook } from '../../providers/payments/sandbox.ts';
import { buildTestApp, testAppPerFile, testEnv } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bankByCode, bearerFor, createUser, validNuban } from '../../test/factories.ts';
import { type FakeFlutterwave, startFakeFlutterwave } from '../../test/fake-flutterwave.ts';
import { balanceOf } from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { type FakeTransactPay, startFakeTransactPay } from '../../test/fake-transactpay.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

/**
 * The sandbox is one switch for the whole server. Each provider
 * configuration is started as the real app and asked which methods are live, sandboxed or
 * unavailable: through the public methods endpoint, a top-up attempt on each method and a
 * bank-account lookup (payouts go through Paystack).
 */
const database = testDatabasePerFile();
let paystack: FakePaystack;
let transactpay: FakeTransactPay;
let flutterwave: FakeFlutterwave;
beforeAll(async () => {
  [paystack, transactpay, flutterwave] = await Promise.all([
    startFakePaystack(),
    startFakeTransactPay(),
    startFakeFlutterwave(),
  ]);
});
afterAll(() => Promise.all([paystack.close(), transactpay.close(), flutterwave.close()]));

/**
 * Each configuration below is an app of its own, built by its test; the two tests of Paystack
 * alone share this one.
 */
const paystackOnlyApp = testAppPerFile(database, () => paystack.env);

const METHODS = ['transactpay', 'paystack', 'flutterwave'] as const;

const NOT_AVAILABLE = 'This payment method is not available';

interface Modes {
  sandbox: boolean;
  methods: Array<{ method: string; mode: string }>;
  payouts: string;
}

async function modesOf(app: FastifyInstance): Promise<Modes> {
  const response = await app.inject({ url: '/api/v1/payment/methods' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as Modes;
}

async function player(app: FastifyInstance) {
  const user = await createUser(app.db);
  return { user, headers: await bearerFor(app, user) };
}

const topUp = (
  app: FastifyInstance,
  headers: Record<string, string>,
  method: string,
  amount = 5000,
) => app.inject({ method: 'POST', url: `/api/v1/payment/${method}`, headers, payload: { amount } });

async function paymentsOf(app: FastifyInstance, userId: string) {
  return app.db.select().from(payments).where(eq(payments.userId, userId));
}

async function resolveBankAccount(app: FastifyInstance, headers: Record<string, string>) {
  const bank = await bankByCode(app.db, '058');
  const accountNumber = validNuban(bank.code);
  paystack.addAccount(bank.code, accountNumber, 'ADA OBI');
  return app.inject({
    method: 'POST',
    url: '/api/v1/bank-account/resolve',
    headers,
    payload: { bankID: bank.id, accountNumber },
  });
}

/** Asserts each method's mode as the app reports it and as a top-up on it behaves. */
async function expectMethods(
  app: FastifyInstance,
  expected: {
    transactpay: string;
    paystack: string;
    flutterwave: string;
    payouts: string;
    sandbox: boolean;
  },
) {
  expect(await modesOf(app)).toEqual({
    sandbox: expected.sandbox,
    methods: [
      { method: 'transactpay', mode: expected.transactpay },
      { method: 'paystack', mode: expected.paystack },
      { method: 'flutterwave', mode: expected.flutterwave },
    ],
    payouts: expected.payouts,
  });
  const { user, headers } = await player(app);
  for (const method of METHODS) {
    const response = await topUp(app, headers, method);
    if (expected[method] === 'unavailable') {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({
        message: NOT_AVAILABLE,
        statusCode: 400,
        code: 'BAD_REQUEST',
      });
    } else {
      expect(response.statusCode, response.body).toBe(200);
      const { paymentUrl, reference } = response.json().data;
      const [row] = await app.db.select().from(payments).where(eq(payments.reference, reference));
      expect(row?.mode).toBe(expected[method]);
      if (expected[method] === 'sandbox')
        expect(paymentUrl).toContain(`/api/v1/payment/sandbox/${method}/`);
      else expect(paymentUrl).not.toContain('/payment/sandbox/');
    }
  }
  const available = METHODS.filter((method) => expected[method] !== 'unavailable');
  // Nothing at all is created for an unavailable method.
  expect((await paymentsOf(app, user.id)).map((row) => row.method).sort()).toEqual(
    [...available].sort(),
  );
  const resolved = await resolveBankAccount(app, headers);
  if (expected.payouts === 'unavailable') {
    expect(resolved.statusCode, resolved.body).toBe(400);
    expect(resolved.json().message).toMatch(/not available/i);
  } else {
    expect(resolved.statusCode, resolved.body).toBe(200);
  }
}

describe('payment modes per provider configuration', () => {
  it('no provider configured (not production): every method and payouts run in the sandbox', async () => {
    const app = await buildTestApp(database());
    await expectMethods(app, {
      sandbox: true,
      transactpay: 'sandbox',
      paystack: 'sandbox',
      flutterwave: 'sandbox',
      payouts: 'sandbox',
    });
  });

  it('Paystack only: Paystack is live, TransactPay is unavailable (never sandboxed)', async () => {
    const app = paystackOnlyApp();
    await expectMethods(app, {
      sandbox: false,
      transactpay: 'unavailable',
      paystack: 'live',
      flutterwave: 'unavailable',
      payouts: 'live',
    });
  });

  it('TransactPay only: TransactPay is live, Paystack and payouts are unavailable', async () => {
    const app = await buildTestApp(database(), transactpay.env);
    await expectMethods(app, {
      sandbox: false,
      transactpay: 'live',
      paystack: 'unavailable',
      flutterwave: 'unavailable',
      payouts: 'unavailable',
    });
  });

  it('Flutterwave only: Flutterwave is live, the others and payouts are unavailable', async () => {
    const app = await buildTestApp(database(), flutterwave.env);
    await expectMethods(app, {
      sandbox: false,
      transactpay: 'unavailable',
      paystack: 'unavailable',
      flutterwave: 'live',
      payouts: 'unavailable',
    });
  });

  it('all three providers: every method and payouts are live', async () => {
    const app = await buildTestApp(database(), {
      ...paystack.env,
      ...transactpay.env,
      ...flutterwave.env,
    });
    await expectMethods(app, {
      sandbox: false,
      transactpay: 'live',
      paystack: 'live',
      flutterwave: 'live',
      payouts: 'live',
    });
  });

  it('both providers: both methods and payouts are live', async () => {
    const app = await buildTestApp(database(), { ...paystack.env, ...transactpay.env });
    await expectMethods(app, {
      sandbox: false,
      transactpay: 'live',
      paystack: 'live',
      flutterwave: 'unavailable',
      payouts: 'live',
    });
  });

  it('PAYMENTS_SANDBOX=false with no provider: nothing is available', async () => {
    const app = await buildTestApp(database(), { PAYMENTS_SANDBOX: 'false' });
    await expectMethods(app, {
      sandbox: false,
      transactpay: 'unavailable',
      paystack: 'unavailable',
      flutterwave: 'unavailable',
      payouts: 'unavailable',
    });
  });

  it('production without providers: the sandbox stays off, nothing is available', async () => {
    const app = await buildTestApp(database(), { NODE_ENV: 'production' });
    await expectMethods(app, {
      sandbox: false,
      transactpay: 'unavailable',
      paystack: 'unavailable',
      flutterwave: 'unavailable',
      payouts: 'unavailable',
    });
  });

  it('production refuses to start with the sandbox on unless forced', () => {
    expect(() => loadConfig(testEnv({ NODE_ENV: 'production', PAYMENTS_SANDBOX: 'true' }))).toThrow(
      /^Invalid PAYMENTS_SANDBOX: .*PAYMENTS_SANDBOX_IN_PRODUCTION=true/,
    );
  });

  it('production with the sandbox forced on: every method runs in the sandbox', async () => {
    const app = await buildTestApp(database(), {
      NODE_ENV: 'production',
      PAYMENTS_SANDBOX: 'true',
      PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
    });
    await expectMethods(app, {
      sandbox: true,
      transactpay: 'sandbox',
      paystack: 'sandbox',
      flutterwave: 'sandbox',
      payouts: 'sandbox',
    });
  });

  it('refuses a half-configured TransactPay instead of treating it as absent', () => {
    const { TRANSACTPAY_ENCRYPTION_KEY: _missing, ...twoOfThree } = transactpay.env;
    expect(() => loadConfig(testEnv(twoOfThree))).toThrow(
      'Invalid TRANSACTPAY_ENCRYPTION_KEY: set TRANSACTPAY_PUBLIC_KEY, TRANSACTPAY_SECRET_KEY, TRANSACTPAY_ENCRYPTION_KEY together, or none of them',
    );
    expect(() => loadConfig(testEnv({ PAYMENTS_SANDBOX: 'maybe' }))).toThrow(
      'Invalid PAYMENTS_SANDBOX: PAYMENTS_SANDBOX must be true or false',
    );
  });

  it('refuses PAYMENTS_SANDBOX=true next to live provider keys', () => {
    expect(() => loadConfig(testEnv({ ...paystack.env, PAYMENTS_SANDBOX: 'true' }))).toThrow(
      /^Invalid PAYMENTS_SANDBOX: .*PAYSTACK_SECRET_KEY/,
    );
    expect(() => loadConfig(testEnv({ ...flutterwave.env, PAYMENTS_SANDBOX: 'true' }))).toThrow(
      /^Invalid PAYMENTS_SANDBOX: .*FLUTTERWAVE_SECRET_KEY, FLUTTERWAVE_WEBHOOK_HASH/,
    );
  });

  it('refuses a Flutterwave key without its webhook hash (or the other way round), in one line', () => {
    const { FLUTTERWAVE_WEBHOOK_HASH: _hash, ...keyOnly } = flutterwave.env;
    const { FLUTTERWAVE_SECRET_KEY: _key, ...hashOnly } = flutterwave.env;
    expect(() => loadConfig(testEnv(keyOnly))).toThrow(
      /^Invalid FLUTTERWAVE_WEBHOOK_HASH: set FLUTTERWAVE_SECRET_KEY, FLUTTERWAVE_WEBHOOK_HASH together, or neither$/,
    );
    expect(() => loadConfig(testEnv(hashOnly))).toThrow(
      /^Invalid FLUTTERWAVE_SECRET_KEY: set FLUTTERWAVE_SECRET_KEY, FLUTTERWAVE_WEBHOOK_HASH together, or neither$/,
    );
    expect(() => loadConfig(testEnv({ ...flutterwave.env, FLUTTERWAVE_BASE_URL: 'nope' }))).toThrow(
      'Invalid FLUTTERWAVE_BASE_URL: FLUTTERWAVE_BASE_URL must be a URL',
    );
    expect(loadConfig(testEnv(flutterwave.env)).flutterwave).toEqual({
      secretKey: flutterwave.secretKey,
      webhookHash: flutterwave.webhookHash,
      baseUrl: flutterwave.url,
    });
    expect(loadConfig(testEnv()).flutterwave).toBeUndefined();
  });
});

describe('an attack on a live Paystack beside an unset TransactPay', () => {
  it('credits nothing: the top-up is refused and the sandbox endpoints do nothing', async () => {
    const app = paystackOnlyApp();
    const { user, headers } = await player(app);

    const attempt = await topUp(app, headers, 'transactpay', 10_000_000);
    expect(attempt.statusCode).toBe(400);
    expect(attempt.json().message).toBe(NOT_AVAILABLE);
    for (const method of ['flutterwave', 'fultterwave']) {
      const other = await topUp(app, headers, method, 10_000_000);
      expect(other.statusCode).toBe(400);
      expect(other.json().message).toBe(NOT_AVAILABLE);
    }
    expect(await paymentsOf(app, user.id)).toEqual([]);

    // A checkout left over from an earlier sandbox period (or planted) cannot be paid now.
    const reference = `PLK-ATTACK-${user.id.slice(0, 8)}`;
    await app.db.insert(payments).values({
      userId: user.id,
      method: 'transactpay',
      reference,
      amount: 1_000_000_000n,
      mode: 'sandbox',
    });
    await app.db
      .insert(sandboxOrders)
      .values({ reference, method: 'transactpay', amount: 1_000_000_000n });
    const page = await app.inject({ url: `/api/v1/payment/sandbox/transactpay/${reference}` });
    expect(page.statusCode).toBe(404);
    const pay = await app.inject({
      method: 'POST',
      url: `/api/v1/payment/sandbox/transactpay/${reference}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(pay.statusCode).toBe(404);
    const body = JSON.stringify({ event: 'charge.success', reference });
    const webhook = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook/transactpay',
      headers: {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(app.secrets.sandbox, body),
      },
      payload: body,
    });
    expect(webhook.statusCode).toBe(404);
    const callback = await app.inject({
      url: `/api/v1/payment/callback/transactpay?reference=${reference}`,
    });
    expect(callback.statusCode).toBe(302);
    expect(String(callback.headers.location)).toContain('status=failed');

    expect(await balanceOf(app.db, user.id)).toBe(0n);
    const [row] = await app.db.select().from(payments).where(eq(payments.reference, reference));
    expect(row?.status).toBe('PENDING');
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });
});
