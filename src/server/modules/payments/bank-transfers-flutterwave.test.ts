import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, users } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createAdmin, createUser, testClock } from '../../test/factories.ts';
import { type FakeFlutterwave, startFakeFlutterwave } from '../../test/fake-flutterwave.ts';
import { balanceOf, notificationTitles, walletEntryCount } from '../../test/fake-money.ts';
import { checkLedger } from '../wallet/ledger-check.ts';
import { reconcileBankTransfers } from './bank-transfers.ts';
import { paymentsContextOf } from './service.ts';

/**
 * Top-ups by bank transfer through Flutterwave's static virtual account numbers, against a local
 * server that speaks Flutterwave's documented v3 API (the only provider this server runs, so its
 * account numbers come from Flutterwave whatever the setting): a permanent account needs the player's BVN,
 * so KYC tier 2 first; `charge.completed` of payment type bank_transfer (with the dashboard's
 * secret hash) credits once after Flutterwave's verify by id confirms it.
 */
const database = testDatabasePerFile();
let flutterwave: FakeFlutterwave;
beforeAll(async () => {
  flutterwave = await startFakeFlutterwave();
});
afterAll(() => flutterwave.close());

const ACCOUNT = '/api/v1/payment/bank-transfer/account';
const WEBHOOK = '/api/v1/payment/webhook/flutterwave';
const BVN = '22212345678';

async function setup(start = new Date('2026-12-02T09:00:00Z')) {
  const app = await buildTestApp(database(), flutterwave.env, { clock: testClock(start) });
  const user = await createUser(app.db, { fullname: 'Chidi Eze', kycTier: 2 });
  const headers = await bearerFor(app, user);
  return { app, user, headers };
}

async function accountNumberOf(app: FastifyInstance, headers: Record<string, string>) {
  const created = await app.inject({
    method: 'POST',
    url: ACCOUNT,
    headers,
    payload: { bvn: BVN },
  });
  expect(created.statusCode, created.body).toBe(200);
  return created.json().data.account.accountNumber as string;
}

const deliver = (
  app: FastifyInstance,
  delivery: { body: string; headers: Record<string, string> },
) =>
  app.inject({ method: 'POST', url: WEBHOOK, headers: delivery.headers, payload: delivery.body });

async function paymentOf(app: FastifyInstance, reference: string) {
  const [row] = await app.db.select().from(payments).where(eq(payments.reference, reference));
  return row;
}

async function expectLedgerHolds(app: FastifyInstance) {
  const { invariants } = await checkLedger(app.db, app.paymentProviders);
  expect(invariants.filter((invariant) => !invariant.ok)).toEqual([]);
}

describe('Flutterwave virtual account numbers', () => {
  it('asks for KYC tier 2 first, then for the BVN, and makes a permanent account with it', async () => {
    const { app, user, headers } = await setup();
    await app.db.update(users).set({ kycTier: 1 }).where(eq(users.id, user.id));
    const tier1 = await app.inject({ url: ACCOUNT, headers });
    expect(tier1.json().data).toEqual({
      available: true,
      provider: 'flutterwave',
      mode: 'live',
      needsBvn: true,
      requiresKycTier: 2,
      account: null,
    });
    const refused = await app.inject({
      method: 'POST',
      url: ACCOUNT,
      headers,
      payload: { bvn: BVN },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'To get an account number, verify your identity (KYC tier 2) first: the bank needs your BVN to open it.',
    );

    await app.db.update(users).set({ kycTier: 2 }).where(eq(users.id, user.id));
    expect((await app.inject({ url: ACCOUNT, headers })).json().data.requiresKycTier).toBeNull();
    const noBvn = await app.inject({ method: 'POST', url: ACCOUNT, headers, payload: {} });
    expect(noBvn.json().message).toBe(
      'Enter your BVN: the bank needs it to open your account number.',
    );
    const badBvn = await app.inject({
      method: 'POST',
      url: ACCOUNT,
      headers,
      payload: { bvn: '123' },
    });
    expect(badBvn.statusCode).toBe(400);

    const number = await accountNumberOf(app, headers);
    const made = flutterwave.virtualAccounts.find((a) => a.accountNumber === number);
    expect(made).toMatchObject({
      isPermanent: true,
      bvn: BVN,
      txRef: `va-${user.id}`,
      email: user.email,
    });
    expect((await app.inject({ url: ACCOUNT, headers })).json().data).toMatchObject({
      needsBvn: false,
      account: { accountNumber: number, accountName: 'Pluckers Chidi Eze', bankName: 'WEMA BANK' },
    });
    // The BVN went to Flutterwave only.
    const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
    expect(
      Object.values(row ?? {})
        .map(String)
        .join(' '),
    ).not.toContain(BVN);
  });

  it('credits a transfer once for 20 copies of its webhook, refuses a wrong secret hash, and returns a held one', async () => {
    const { app, user, headers } = await setup();
    const number = await accountNumberOf(app, headers);
    const transfer = flutterwave.receiveTransfer(number, 3_500, {
      name: 'NGOZI ABA',
      bank: 'Zenith Bank',
    });
    const delivery = flutterwave.chargeWebhook(transfer);
    const forged = await deliver(app, {
      body: delivery.body,
      headers: { ...delivery.headers, 'verif-hash': 'guess' },
    });
    expect(forged.statusCode).toBe(401);
    expect(await balanceOf(app.db, user.id)).toBe(0n);

    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(app, delivery)));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(await balanceOf(app.db, user.id)).toBe(350_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(1);
    expect(await paymentOf(app, transfer.flwRef)).toMatchObject({
      status: 'SUCCESS',
      channel: 'bank_transfer',
      method: 'flutterwave',
      senderName: 'NGOZI ABA',
      senderBank: 'Zenith Bank',
      providerTransactionId: String(transfer.id),
    });
    expect(await notificationTitles(app.db, user.id)).toEqual(['₦3,500 received']);
    await expectLedgerHolds(app);

    // Past a daily deposit limit: held, then sent back through Flutterwave's refund by id.
    const limit = await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers,
      payload: { kind: 'deposit', period: 'day', amount: 4_000 },
    });
    expect(limit.statusCode, limit.body).toBe(200);
    const over = flutterwave.receiveTransfer(number, 1_000);
    await deliver(app, flutterwave.chargeWebhook(over));
    expect(await paymentOf(app, over.flwRef)).toMatchObject({ status: 'HELD' });
    const operator = await bearerFor(app, await createAdmin(app.db));
    const returned = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/held-payments/${over.flwRef}/return`,
      headers: operator,
      payload: { note: 'Over the daily limit the player set' },
    });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(flutterwave.refunds.filter((r) => r.transactionId === over.id)).toMatchObject([
      { amount: 1_000 },
    ]);
    expect(await paymentOf(app, over.flwRef)).toMatchObject({ status: 'REFUNDED' });
    expect(await balanceOf(app.db, user.id)).toBe(350_000n);
    await expectLedgerHolds(app);
  });

  it('reconciliation lands a transfer whose webhook never came, once', async () => {
    // Flutterwave lists by day: the clock is today's.
    const { app, user, headers } = await setup(new Date());
    const number = await accountNumberOf(app, headers);
    const missed = flutterwave.receiveTransfer(number, 800);
    const ctx = paymentsContextOf(app, 'https://pluckers.test');
    await reconcileBankTransfers(ctx);
    expect(await paymentOf(app, missed.flwRef)).toMatchObject({
      status: 'SUCCESS',
      userId: user.id,
    });
    await reconcileBankTransfers(ctx);
    await deliver(app, flutterwave.chargeWebhook(missed));
    expect(await balanceOf(app.db, user.id)).toBe(80_000n);
    expect(flutterwave.requests.some((r) => r.path === '/v3/transactions')).toBe(true);
    await expectLedgerHolds(app);
  });
});
