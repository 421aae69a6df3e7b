import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identityVerifications, users } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createAdmin, createUser, testClock } from '../../test/factories.ts';
import { type FakeDojah, startFakeDojah } from '../../test/fake-dojah.ts';
import { type FakeFlutterwave, startFakeFlutterwave } from '../../test/fake-flutterwave.ts';
import { balanceOf, notificationTitles, walletEntryCount } from '../../test/fake-money.ts';
import {
  BANK_TRANSFER_ACCOUNT as ACCOUNT,
  accountNumberFor,
  expectLedgerHolds,
  paymentOf,
} from '../../test/top-ups.ts';
import { identityHash } from '../kyc/identity-hash.ts';
import { startBreak } from '../responsible-play/test-fixtures.ts';
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
// The identity service, asked whose a BVN is when the player verified with a NIN.
let dojah: FakeDojah;
beforeAll(async () => {
  flutterwave = await startFakeFlutterwave();
  dojah = await startFakeDojah();
});
afterAll(async () => {
  await flutterwave.close();
  await dojah.close();
});

const WEBHOOK = '/api/v1/payment/webhook/flutterwave';
/** An 11-digit number no other test uses (a verified one is unique across accounts). */
const freshNumber = (first: string) => `${first}${String(randomInt(1e9, 1e10))}`;

/** What KYC tier 2 keeps of a verified number: its keyed hash and last four digits. */
async function verifiedIdentity(
  app: FastifyInstance,
  userId: string,
  idType: 'BVN' | 'NIN',
  idNumber: string,
) {
  await app.db.insert(identityVerifications).values({
    userId,
    idType,
    idHash: identityHash(app.secrets.kycHash, idType, idNumber),
    idLastFour: idNumber.slice(-4),
    provider: 'sandbox',
    mode: 'sandbox',
    status: 'VERIFIED',
  });
}

const WEDNESDAY = new Date('2026-12-02T09:00:00Z');
const providersEnv = () => ({ ...flutterwave.env, ...dojah.env });
/** The app of the tests on WEDNESDAY's clock, which none of them moves. */
const fileApp = testAppPerFile(database, providersEnv, { clock: testClock(WEDNESDAY) });

/**
 * A player at KYC tier 2, verified with a fresh BVN (`bvn`), or with nothing on file: on the
 * file's app, or on one of the test's own when it brings a clock (`start`).
 */
async function setup(start?: Date, withBvn = true) {
  const app = start
    ? await buildTestApp(database(), providersEnv(), { clock: testClock(start) })
    : fileApp();
  const user = await createUser(app.db, { fullname: 'Chidi Eze', kycTier: 2 });
  const bvn = freshNumber('2');
  if (withBvn) await verifiedIdentity(app, user.id, 'BVN', bvn);
  const headers = await bearerFor(app, user);
  return { app, user, headers, bvn };
}

const deliver = (
  app: FastifyInstance,
  delivery: { body: string; headers: Record<string, string> },
) =>
  app.inject({ method: 'POST', url: WEBHOOK, headers: delivery.headers, payload: delivery.body });

describe('Flutterwave virtual account numbers', () => {
  it('asks for KYC tier 2 first, then for the BVN, and makes a permanent account with it', async () => {
    const { app, user, headers, bvn: BVN } = await setup();
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

    const number = await accountNumberFor(app, headers, { bvn: BVN });
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
    await expectLedgerHolds(app);
  });

  it('credits a transfer once for 20 copies of its webhook, refuses a wrong secret hash, and returns a held one', async () => {
    const { app, user, headers, bvn } = await setup();
    const number = await accountNumberFor(app, headers, { bvn });
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

  it('holds a transfer that arrives during a break, and the release waits for its end', async () => {
    const { app, user, headers, bvn } = await setup();
    const number = await accountNumberFor(app, headers, { bvn });
    await startBreak(app, headers);
    const transfer = flutterwave.receiveTransfer(number, 2_000, {
      name: 'EMEKA OBI',
      bank: 'First Bank',
    });
    expect((await deliver(app, flutterwave.chargeWebhook(transfer))).statusCode).toBe(200);
    expect(await paymentOf(app, transfer.flwRef)).toMatchObject({
      status: 'HELD',
      holdReason: 'you are taking a break until 09 Dec 2026, 10:00 am',
      senderName: 'EMEKA OBI',
      senderBank: 'First Bank',
    });
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    expect(await notificationTitles(app.db, user.id)).toContain('Top-up on hold');
    const operator = await bearerFor(app, await createAdmin(app.db));
    const release = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/held-payments/${transfer.flwRef}/release`,
      headers: operator,
      payload: { note: 'The player asked for it' },
    });
    expect(release.statusCode).toBe(400);
    expect(await paymentOf(app, transfer.flwRef)).toMatchObject({ status: 'HELD' });
    await expectLedgerHolds(app);
  });

  it('takes only the BVN the player verified, so nobody opens an account on someone else’s', async () => {
    const { app, headers, bvn: BVN } = await setup();
    const before = flutterwave.virtualAccounts.length;
    const other = freshNumber('2');
    const refused = await app.inject({
      method: 'POST',
      url: ACCOUNT,
      headers,
      payload: { bvn: other },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      `This is not the BVN you verified your identity with. Enter that BVN (it ends in ${BVN.slice(-4)}).`,
    );
    expect(flutterwave.virtualAccounts).toHaveLength(before);
    expect((await app.inject({ url: ACCOUNT, headers })).json().data.account).toBeNull();
    expect(await accountNumberFor(app, headers, { bvn: BVN })).toMatch(/^\d{10}$/);
    await expectLedgerHolds(app);
  });

  it('checks the BVN of a player verified with a NIN with the identity service', async () => {
    const { app, user, headers } = await setup(undefined, false);
    const own = freshNumber('2');
    const bvnOf = (bvn: string) =>
      app.inject({ method: 'POST', url: ACCOUNT, headers, payload: { bvn } });
    // Tier 2 set by hand and nothing on file: no number of theirs to compare with.
    const unverified = await bvnOf(own);
    expect(unverified.statusCode).toBe(400);
    expect(unverified.json().message).toBe(
      'To get an account number, verify your identity (KYC tier 2) first: the bank needs your BVN to open it.',
    );

    const nin = freshNumber('7');
    await verifiedIdentity(app, user.id, 'NIN', nin);
    await app.db
      .update(users)
      .set({ verifiedName: 'Chidi Eze', verifiedBirthDate: '1991-07-09' })
      .where(eq(users.id, user.id));
    const chidi = { first_name: 'CHIDI', last_name: 'EZE', date_of_birth: '09-July-1991' };
    // Someone else's (another name; the same name born another day; another holder's NIN),
    // and one the register does not know: all refused, and Flutterwave is never asked.
    const someoneElse = freshNumber('2');
    dojah.add('BVN', someoneElse, { ...chidi, first_name: 'BOLA' });
    const bornAnotherDay = freshNumber('2');
    dojah.add('BVN', bornAnotherDay, { ...chidi, date_of_birth: '10-July-1991' });
    const anotherHoldersNin = freshNumber('2');
    dojah.add('BVN', anotherHoldersNin, { ...chidi, nin: freshNumber('7') });
    const before = flutterwave.virtualAccounts.length;
    for (const bvn of [someoneElse, bornAnotherDay, anotherHoldersNin, freshNumber('2')]) {
      const refused = await bvnOf(bvn);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(
        'This BVN is not registered to you: enter the BVN in the name and date of birth you verified.',
      );
    }
    expect(flutterwave.virtualAccounts).toHaveLength(before);

    // Theirs: the record names their NIN.
    dojah.add('BVN', own, { ...chidi, nin });
    const made = await bvnOf(own);
    expect(made.statusCode, made.body).toBe(200);
    expect(flutterwave.virtualAccounts.at(-1)).toMatchObject({ bvn: own });
    await expectLedgerHolds(app);
  });

  it('reconciliation lands a transfer whose webhook never came, once', async () => {
    // Flutterwave lists by day: the clock is today's.
    const { app, user, headers, bvn } = await setup(new Date());
    const number = await accountNumberFor(app, headers, { bvn });
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
