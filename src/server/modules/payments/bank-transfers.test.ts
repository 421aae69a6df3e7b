import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAudit, jobs, payments, users, virtualAccounts } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createAdmin,
  createPlayer,
  createUser,
  testClock,
  uniquePhone,
} from '../../test/factories.ts';
import {
  balanceOf,
  ledgerTransactionsFor,
  notificationTitles,
  walletEntryCount,
} from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import {
  BANK_TRANSFER_ACCOUNT as ACCOUNT,
  accountNumberFor,
  expectLedgerHolds,
  paymentOf,
} from '../../test/top-ups.ts';
import { startBreak } from '../responsible-play/test-fixtures.ts';
import { checkLedger } from '../wallet/ledger-check.ts';
import { reconcileBankTransfers } from './bank-transfers.ts';
import { paymentsContextOf } from './service.ts';

/**
 * Top-ups by bank transfer through Paystack dedicated virtual accounts, against a local server
 * that speaks Paystack's documented API: the account number made on request, each transfer
 * credited once from the signed webhook after asking Paystack, and the rules (deposit limits,
 * breaks, KYC caps, AML) holding what they refuse.
 */
const database = testDatabasePerFile();
let paystack: FakePaystack;
beforeAll(async () => {
  paystack = await startFakePaystack();
});
afterAll(() => paystack.close());

// A Wednesday, 10:00 in Lagos.
const START = new Date('2026-12-02T09:00:00Z');
const WEBHOOK = '/api/v1/payment/webhook/paystack';

/**
 * One app for the file, its clock stopped at START: no test moves it, and each makes its own
 * player, so the rules they meet (limits, breaks, caps) are that player's alone.
 */
const fileApp = testAppPerFile(database, () => paystack.env, { clock: testClock(START) });

async function setup() {
  const app = fileApp();
  const user = await createUser(app.db, { fullname: 'Adaeze Okafor' });
  const headers = await bearerFor(app, user);
  return { app, user, headers };
}

function deliver(
  app: FastifyInstance,
  delivery: { body: string; headers: Record<string, string> },
) {
  return app.inject({
    method: 'POST',
    url: WEBHOOK,
    headers: delivery.headers,
    payload: delivery.body,
  });
}

/** Someone sends `naira` to the account number, and Paystack's webhook says so. */
async function transferArrives(
  app: FastifyInstance,
  accountNumber: string,
  naira: number,
  sender?: { name?: string; bank?: string },
) {
  const transaction = paystack.receiveTransfer(accountNumber, naira * 100, sender);
  const answer = await deliver(app, paystack.dedicatedTransferWebhook(transaction.reference));
  expect(answer.statusCode, answer.body).toBe(200);
  return transaction.reference;
}

describe('account numbers (Paystack dedicated virtual accounts)', () => {
  it('makes one on request: a Paystack customer, then a dedicated account at its test bank', async () => {
    const { app, user, headers } = await setup();
    const before = await app.inject({ url: ACCOUNT, headers });
    expect(before.json().data).toEqual({
      available: true,
      provider: 'paystack',
      mode: 'live',
      needsBvn: false,
      requiresKycTier: null,
      account: null,
    });

    const [first, second] = await Promise.all([
      app.inject({ method: 'POST', url: ACCOUNT, headers, payload: {} }),
      app.inject({ method: 'POST', url: ACCOUNT, headers, payload: {} }),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    expect(second.json().data).toEqual(first.json().data);
    const customer = paystack.customers.find((c) => c.email === user.email);
    expect(customer).toMatchObject({ firstName: 'Adaeze', lastName: 'Okafor' });
    const dedicated = paystack.dedicatedAccounts.filter((a) => a.customerCode === customer?.code);
    expect(dedicated).toHaveLength(1);
    expect(dedicated[0]?.bankSlug).toBe('test-bank');
    expect(first.json().data.account).toEqual({
      accountNumber: dedicated[0]?.accountNumber,
      accountName: 'PLUCKERS/ADAEZE OKAFOR',
      bankName: 'Test Bank',
    });
    const request = paystack.requests.find((r) => r.path === '/dedicated_account');
    expect(request?.authorization).toBe(`Bearer ${paystack.secretKey}`);

    const after = await app.inject({ url: ACCOUNT, headers });
    expect(after.json().data.account).toEqual(first.json().data.account);
    expect(
      await app.db.select().from(virtualAccounts).where(eq(virtualAccounts.userId, user.id)),
    ).toHaveLength(1);
    await expectLedgerHolds(app);
  });

  it('is unavailable where no provider of account numbers runs, and asks for 18+ first', async () => {
    const bare = await buildTestApp(database(), { PAYMENTS_SANDBOX: 'false' });
    const player = await bearerFor(bare, await createUser(bare.db));
    const answer = await bare.inject({ url: ACCOUNT, headers: player });
    expect(answer.json().data).toMatchObject({
      available: false,
      mode: 'unavailable',
      account: null,
    });
    const closed = await bare.inject({
      method: 'POST',
      url: ACCOUNT,
      headers: player,
      payload: {},
    });
    expect(closed.statusCode).toBe(400);
    expect(closed.json().message).toBe('Top-ups by bank transfer are not available right now.');

    const { app } = await setup();
    const unconfirmed = await createUser(app.db, { ageConfirmedAt: null });
    const refused = await app.inject({
      method: 'POST',
      url: ACCOUNT,
      headers: await bearerFor(app, unconfirmed),
      payload: {},
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('transfers into the account number', () => {
  it('credits a transfer once, after asking Paystack, with the sender kept and a notice', async () => {
    const { app, user, headers } = await setup();
    const number = await accountNumberFor(app, headers);
    const reference = await transferArrives(app, number, 7_350, {
      name: 'CHIDI EZE',
      bank: 'Access Bank',
    });

    expect(await balanceOf(app.db, user.id)).toBe(735_000n);
    expect(await paymentOf(app, reference)).toMatchObject({
      status: 'SUCCESS',
      channel: 'bank_transfer',
      method: 'paystack',
      amount: 735_000n,
      senderName: 'CHIDI EZE',
      senderBank: 'Access Bank',
      mode: 'live',
    });
    const verifies = paystack.requests.filter((r) => r.path === `/transaction/verify/${reference}`);
    expect(verifies).toHaveLength(1);
    expect(await ledgerTransactionsFor(app.db, `topup:paystack:${reference}`)).toHaveLength(1);
    expect(await notificationTitles(app.db, user.id)).toEqual(['₦7,350 received']);
    const push = await app.db.select().from(jobs).where(eq(jobs.kind, 'push'));
    expect(push.map((job) => job.payload.event)).toContainEqual({
      type: 'transfer-received',
      paymentId: (await paymentOf(app, reference))?.id,
    });

    const history = await app.inject({ url: '/api/v1/payment?page=1', headers });
    expect(history.json().data.payments).toEqual([
      expect.objectContaining({
        reference,
        amount: 7_350,
        paymentMethod: 'paystack',
        status: 'successful',
        channel: 'bank_transfer',
        senderName: 'CHIDI EZE',
        senderBank: 'Access Bank',
      }),
    ]);
    await expectLedgerHolds(app);
  });

  it('credits 20 copies of one webhook, delivered at once, exactly once', async () => {
    const { app, user, headers } = await setup();
    const number = await accountNumberFor(app, headers);
    const transaction = paystack.receiveTransfer(number, 250_000);
    const delivery = paystack.dedicatedTransferWebhook(transaction.reference);
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(app, delivery)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));

    expect(await balanceOf(app.db, user.id)).toBe(250_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(1);
    expect(
      await app.db.select().from(payments).where(eq(payments.reference, transaction.reference)),
    ).toHaveLength(1);
    expect(await notificationTitles(app.db, user.id)).toEqual(['₦2,500 received']);
    // A replay days later does nothing either.
    expect((await deliver(app, delivery)).statusCode).toBe(200);
    expect(await balanceOf(app.db, user.id)).toBe(250_000n);
    await expectLedgerHolds(app);
  });

  it('refuses a forged signature and a body Paystack does not confirm, crediting nothing', async () => {
    const { app, user, headers } = await setup();
    const number = await accountNumberFor(app, headers);
    const transaction = paystack.receiveTransfer(number, 100_000);
    const genuine = paystack.dedicatedTransferWebhook(transaction.reference);
    // The amount raised after signing: the signature no longer matches.
    const forged = {
      body: genuine.body.replace('"amount":100000', '"amount":99900000'),
      headers: genuine.headers,
    };
    expect(forged.body).not.toBe(genuine.body);
    const refused = await deliver(app, forged);
    expect(refused.statusCode).toBe(401);
    const unsigned = await deliver(app, {
      body: genuine.body,
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(401);
    expect(
      paystack.requests.filter((r) => r.path === `/transaction/verify/${transaction.reference}`),
    ).toHaveLength(0);
    // Signed with our key but about a transfer Paystack never had: verification finds nothing.
    const invented = JSON.parse(genuine.body) as { data: { reference: string } };
    invented.data.reference = 'made-up-reference';
    const body = JSON.stringify(invented);
    const answer = await deliver(app, {
      body,
      headers: { 'content-type': 'application/json', 'x-paystack-signature': paystack.sign(body) },
    });
    expect(answer.statusCode).toBe(200);
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    expect(await app.db.select().from(payments).where(eq(payments.userId, user.id))).toEqual([]);
    await expectLedgerHolds(app);
  });

  it('the ledger check notices a transfer that arrived and was neither credited nor held', async () => {
    const { app, user } = await setup();
    // Inside a transaction rolled back at the end: other files' ledger checks (one shared
    // PostgreSQL) never see the broken row.
    const rollback = new Error('rolled back on purpose');
    const seen = await app.db
      .transaction(async (tx) => {
        await tx.insert(payments).values({
          userId: user.id,
          method: 'paystack',
          reference: `stuck-${user.id}`,
          amount: 100_000n,
          mode: 'live',
          channel: 'bank_transfer',
        });
        const { invariants } = await checkLedger(tx, app.paymentProviders);
        throw Object.assign(rollback, {
          invariant: invariants.find((invariant) => invariant.name === 'bank_transfers_landed'),
        });
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
        return (error as Error & { invariant: unknown }).invariant;
      });
    expect(seen).toMatchObject({
      ok: false,
      offending: [{ reference: `stuck-${user.id}`, status: 'PENDING' }],
    });
    expect(await paymentOf(app, `stuck-${user.id}`)).toBeUndefined();
  });

  it('credits the amount that arrived, whatever it is, and several transfers each once', async () => {
    const { app, user, headers } = await setup();
    const number = await accountNumberFor(app, headers);
    await transferArrives(app, number, 50.5);
    await transferArrives(app, number, 1_200);
    expect(await balanceOf(app.db, user.id)).toBe(125_050n);
    expect(await walletEntryCount(app.db, user.id)).toBe(2);
    await expectLedgerHolds(app);
  });
});

describe('the rules hold what they refuse', () => {
  async function heldQueue(app: FastifyInstance, operator: Record<string, string>) {
    const queue = await app.inject({ url: '/api/v1/admin/held-payments', headers: operator });
    return queue.json().data.payments as Array<{ reference: string; status: string }>;
  }

  it('holds a transfer past the deposit limit, shows it, and returns it to the sender through Paystack', async () => {
    const { app, user, headers } = await setup();
    const number = await accountNumberFor(app, headers);
    const limit = await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers,
      payload: { kind: 'deposit', period: 'day', amount: 5_000 },
    });
    expect(limit.statusCode, limit.body).toBe(200);
    const first = await transferArrives(app, number, 4_000);
    const second = await transferArrives(app, number, 2_000, { name: 'CHIDI EZE' });

    expect(await balanceOf(app.db, user.id)).toBe(400_000n);
    expect(await paymentOf(app, first)).toMatchObject({ status: 'SUCCESS' });
    const held = await paymentOf(app, second);
    expect(held).toMatchObject({ status: 'HELD', senderName: 'CHIDI EZE' });
    const message =
      '₦2,000 is on hold: it would have taken you past your daily deposit limit of ₦5,000, so it was not added to your wallet. It is safe: our team will send it back to CHIDI EZE or, once the rules allow, add it to your wallet.';
    const history = await app.inject({ url: '/api/v1/payment?page=1', headers });
    expect(
      (history.json().data.payments as Array<{ reference: string }>).find(
        (row) => row.reference === second,
      ),
    ).toMatchObject({ status: 'held', note: message });
    expect((await notificationTitles(app.db, user.id)).sort()).toEqual([
      'Top-up on hold',
      '₦4,000 received',
    ]);
    await expectLedgerHolds(app);

    const admin = await createAdmin(app.db);
    const operator = await bearerFor(app, admin);
    // The queue says who sent it and from which bank: the one it goes back to.
    expect((await heldQueue(app, operator)).find((row) => row.reference === second)).toMatchObject({
      status: 'held',
      canRefund: true,
      channel: 'bank_transfer',
      senderName: 'CHIDI EZE',
      senderBank: 'Guaranty Trust Bank',
    });
    const returned = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/held-payments/${second}/return`,
      headers: operator,
      payload: { note: 'Sent back: over the player’s own daily limit' },
    });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(paystack.refunds.filter((r) => r.reference === second)).toMatchObject([
      { amount: 200_000 },
    ]);
    expect(await paymentOf(app, second)).toMatchObject({ status: 'REFUNDED' });
    const [audit] = await app.db
      .select()
      .from(adminAudit)
      .where(and(eq(adminAudit.targetId, second), eq(adminAudit.action, 'payment.hold.return')));
    expect(audit?.adminId).toBe(admin.id);
    // Reported again after the return: still nothing more.
    await deliver(app, paystack.dedicatedTransferWebhook(second));
    expect(await balanceOf(app.db, user.id)).toBe(400_000n);
    await expectLedgerHolds(app);
  });

  it('holds a transfer during a break, and one to another account of the same person', async () => {
    const { app, user, headers } = await setup();
    const number = await accountNumberFor(app, headers);
    const phone = uniquePhone();
    await app.db.update(users).set({ phoneNumber: phone }).where(eq(users.id, user.id));
    await startBreak(app, headers);
    const duringBreak = await transferArrives(app, number, 3_000);
    expect(await paymentOf(app, duringBreak)).toMatchObject({
      status: 'HELD',
      holdReason: 'you are taking a break until 09 Dec 2026, 10:00 am',
    });

    // A second account with the same phone number: bound to the break, without saying whose.
    const other = await createPlayer(app.db, { overrides: { phoneNumber: phone } });
    const otherNumber = await accountNumberFor(app, await bearerFor(app, other));
    const bound = await transferArrives(app, otherNumber, 1_000);
    expect(await paymentOf(app, bound)).toMatchObject({
      status: 'HELD',
      holdReason: 'topping up is paused on this account',
    });
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    expect(await balanceOf(app.db, other.id)).toBe(0n);
    // An operator cannot release it into the wallet while the break runs.
    const operator = await bearerFor(app, await createAdmin(app.db));
    const release = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/held-payments/${duringBreak}/release`,
      headers: operator,
      payload: { note: 'The player asked for it' },
    });
    expect(release.statusCode).toBe(400);
    expect(release.json().message).toBe(
      'This transfer cannot be added to the wallet now: you are taking a break until 09 Dec 2026, 10:00 am.',
    );
    expect(await paymentOf(app, duringBreak)).toMatchObject({ status: 'HELD' });
    await expectLedgerHolds(app);
  });

  it('holds a transfer past the KYC tier balance cap, to a suspended account, and one at the AML review threshold', async () => {
    const { app, user, headers } = await setup();
    const number = await accountNumberFor(app, headers);
    // Tier 1 holds at most ₦300,000 by default.
    const overCap = await transferArrives(app, number, 300_001);
    expect(await paymentOf(app, overCap)).toMatchObject({
      status: 'HELD',
      holdReason:
        'your wallet may hold at most ₦300,000 at KYC tier 1; verify your identity to raise it',
    });
    await app.db.update(users).set({ suspendedAt: START }).where(eq(users.id, user.id));
    const suspended = await transferArrives(app, number, 100);
    expect(await paymentOf(app, suspended)).toMatchObject({
      status: 'HELD',
      holdReason: 'this account is suspended',
    });
    await app.db.update(users).set({ suspendedAt: null }).where(eq(users.id, user.id));
    // The AML review threshold is ₦100,000 by default (left alone: files share the settings).
    const large = await transferArrives(app, number, 100_000);
    expect(await paymentOf(app, large)).toMatchObject({
      status: 'HELD',
      holdReason: 'our team looks at transfers of this size before they reach a wallet',
    });
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    await expectLedgerHolds(app);
  });
});

describe('reconciliation', () => {
  it('asks Paystack for transfers whose webhook never came and lands each once', async () => {
    // A Paystack of its own, so transfers of the other tests are not in its list.
    const own = await startFakePaystack();
    try {
      const app = await buildTestApp(database(), own.env);
      const user = await createUser(app.db);
      const headers = await bearerFor(app, user);
      const number = await accountNumberFor(app, headers);
      const ctx = paymentsContextOf(app, 'https://pluckers.test');
      // Nothing given out by this Paystack yet to anyone else: only this player's transfers.
      const missed = own.receiveTransfer(number, 420_000, { name: 'NGOZI ABA' });
      const seen = own.receiveTransfer(number, 10_000);
      const answer = await app.inject({
        method: 'POST',
        url: WEBHOOK,
        headers: own.dedicatedTransferWebhook(seen.reference).headers,
        payload: own.dedicatedTransferWebhook(seen.reference).body,
      });
      expect(answer.statusCode).toBe(200);
      expect(await balanceOf(app.db, user.id)).toBe(10_000n);

      expect(await reconcileBankTransfers(ctx)).toBe(1);
      expect(await balanceOf(app.db, user.id)).toBe(430_000n);
      expect(await paymentOf(app, missed.reference)).toMatchObject({
        status: 'SUCCESS',
        channel: 'bank_transfer',
        senderName: 'NGOZI ABA',
      });
      const listed = own.requests.find((r) => r.path === '/transaction');
      expect(listed?.authorization).toBe(`Bearer ${own.secretKey}`);
      // Asked again, and the late webhook: nothing more.
      expect(await reconcileBankTransfers(ctx)).toBe(0);
      const late = own.dedicatedTransferWebhook(missed.reference);
      await app.inject({ method: 'POST', url: WEBHOOK, headers: late.headers, payload: late.body });
      expect(await balanceOf(app.db, user.id)).toBe(430_000n);
      expect(await walletEntryCount(app.db, user.id)).toBe(2);
      await expectLedgerHolds(app);
    } finally {
      await own.close();
    }
  });
});
