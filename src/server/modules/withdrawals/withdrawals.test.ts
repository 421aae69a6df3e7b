import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAudit, users, withdrawals } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bankByCode,
  bearerFor,
  createAdmin,
  createPlayer,
  createUser,
  type TestClock,
  testClock,
  type UserRow,
  uniqueSuffix,
  validNuban,
} from '../../test/factories.ts';
import {
  accountEntriesFor,
  balanceOf,
  invalidNubans,
  notificationTitles,
  walletEntryCount,
} from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';
import { ACCOUNTS } from '../wallet/ledger.ts';
import { checkLedger } from '../wallet/ledger-check.ts';
import { transferReference } from './serialize.ts';
import { insertWithShortReference, newShortReference } from './short-reference.ts';

/** Withdrawal rules, the admin queue and payouts through (fake) Paystack transfers. */
const database = testDatabasePerFile();
let paystack: FakePaystack;
let smtp: TestSmtpServer;
beforeAll(async () => {
  [paystack, smtp] = await Promise.all([startFakePaystack(), startSmtpServer()]);
});
afterAll(async () => {
  await Promise.all([paystack.close(), smtp.close()]);
});

const FEE = 5_000n;
/** Every first payout to an account is held for review (aml-rules.ts): the operator says why it may go. */
const FIRST_PAYOUT_NOTE = 'First payout to this account: name matches the player';

/** One app for the tests that need no clock or environment of their own. */
const fileApp = testAppPerFile(database, () => ({ ...paystack.env, SMTP_URL: smtp.url }));

async function setup(options: { clock?: TestClock; env?: Record<string, string> } = {}) {
  const app =
    options.clock || options.env
      ? await buildTestApp(database(), options.env ?? { ...paystack.env, SMTP_URL: smtp.url }, {
          clock: options.clock,
        })
      : fileApp();
  const admin = await createAdmin(app.db);
  const adminHeaders = await bearerFor(app, admin);
  return { app, admin, adminHeaders };
}

async function withdraw(
  app: FastifyInstance,
  user: UserRow,
  amount: number,
  idempotencyKey?: string,
) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/withdrawal',
    headers: {
      ...(await bearerFor(app, user)),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    payload: { amount },
  });
}

async function withdrawalRow(app: FastifyInstance, id: string) {
  const [row] = await app.db.select().from(withdrawals).where(eq(withdrawals.id, id));
  if (!row) throw new Error(`no withdrawal ${id}`);
  return row;
}

describe('requesting a withdrawal', () => {
  it('needs a saved bank account', async () => {
    const { app } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n, bank: null });
    const response = await withdraw(app, player, 200);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Add a bank account before you withdraw');
    expect(await balanceOf(app.db, player.id)).toBe(100_000n);
  });

  it('needs at least the minimum amount', async () => {
    const { app } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const response = await withdraw(app, player, 99.99);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The minimum withdrawal is ₦100');
    for (const amount of [0, -5]) {
      const invalid = await withdraw(app, player, amount);
      expect(invalid.statusCode).toBe(400);
    }
    expect(await balanceOf(app.db, player.id)).toBe(100_000n);
  });

  it('reserves amount + fee at once, and refuses when they exceed the balance', async () => {
    const { app } = await setup();
    const player = await createPlayer(app.db, { kobo: 15_000n });
    const refused = await createPlayer(app.db, { kobo: 14_999n });

    const tooMuch = await withdraw(app, refused, 100);
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe(
      'Insufficient balance: this withdrawal needs ₦150 (including the ₦50 fee)',
    );
    expect(await balanceOf(app.db, refused.id)).toBe(14_999n);
    // Beyond any wallet: refused by its bound before any arithmetic.
    const absurd = await withdraw(app, refused, 1e20);
    expect(absurd.statusCode).toBe(400);
    expect(absurd.json().message).toBe('The maximum withdrawal is ₦1,000,000,000');

    // Exactly amount + fee: allowed, and the wallet is empty afterwards.
    const response = await withdraw(app, player, 100);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      message: 'Withdrawal requested. It will be processed within 24–48 hours.',
      data: { amount: 100, fee: 50, status: 'pending' },
    });
    expect(await balanceOf(app.db, player.id)).toBe(0n);
    const id = response.json().data.id as string;
    // The receipt: the reference the payout goes out under, and where the money goes.
    expect(response.json().data).toMatchObject({
      reference: `wd-${id}`,
      bankName: 'Guaranty Trust Bank',
      accountNumber: player.bankAccountNumber,
      accountName: 'ADA OBI',
    });
    const entries = await accountEntriesFor(app.db, `withdrawal:${id}`);
    expect(entries).toEqual(
      expect.arrayContaining([
        { account: ACCOUNTS.wallet, userId: player.id, amount: -15_000n },
        { account: ACCOUNTS.payoutClearing, userId: null, amount: 10_000n },
        { account: ACCOUNTS.withdrawalFees, userId: null, amount: FEE },
      ]),
    );
    expect(await withdrawalRow(app, id)).toMatchObject({
      status: 'PENDING',
      bankCode: '058',
      bankName: 'Guaranty Trust Bank',
      accountNumber: player.bankAccountNumber,
      accountName: 'ADA OBI',
    });
    expect(await notificationTitles(app.db, player.id)).toEqual(['Withdrawal requested']);

    const history = await app.inject({
      url: '/api/v1/withdrawal?page=1',
      headers: await bearerFor(app, player),
    });
    expect(history.json().data).toEqual({
      withdrawals: [
        expect.objectContaining({
          id,
          reference: transferReference(id),
          amount: 100,
          fee: 50,
          status: 'pending',
          accountName: 'ADA OBI',
        }),
      ],
      pagination: { page: 1, pageSize: 10, totalPages: 1, totalResults: 1 },
    });
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('replays an Idempotency-Key: same withdrawal (200), debited once, even when retried at once', async () => {
    const { app } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const key = `key-${uniqueSuffix()}`;
    const first = await withdraw(app, player, 200, key);
    expect(first.statusCode).toBe(201);
    const again = await withdraw(app, player, 200, key);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(first.json().data);

    const racingKey = `key-${uniqueSuffix()}`;
    const racing = await Promise.all(
      Array.from({ length: 10 }, () => withdraw(app, player, 100, racingKey)),
    );
    const codes = racing.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(racing.map((r) => r.json().data.id)).size).toBe(1);

    // 1000 - (200 + 50) - (100 + 50)
    expect(await balanceOf(app.db, player.id)).toBe(60_000n);
    const rows = await app.db.select().from(withdrawals).where(eq(withdrawals.userId, player.id));
    expect(rows).toHaveLength(2);
    // The same key belongs to each player separately.
    const other = await createPlayer(app.db, { kobo: 100_000n });
    expect((await withdraw(app, other, 200, key)).statusCode).toBe(201);
    // A key must be at least 8 characters.
    expect((await withdraw(app, other, 200, 'short')).statusCode).toBe(400);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });
});

describe('admin decisions', () => {
  it('approves through a Paystack transfer: SUCCESSFUL, payout clearing → bank payouts', async () => {
    const { app, adminHeaders } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const id = (await withdraw(app, player, 500)).json().data.id as string;

    const forbidden = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/withdrawals/${id}/approve`,
      headers: await bearerFor(app, player),
      payload: {},
    });
    expect(forbidden.statusCode).toBe(403);

    const approved = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/withdrawals/${id}/approve`,
      headers: adminHeaders,
      payload: { reviewNote: FIRST_PAYOUT_NOTE },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      message: 'Withdrawal successful',
      data: { id, status: 'successful', internalStatus: 'SUCCESSFUL' },
    });

    const transfer = paystack.transfers.find((t) => t.reference === transferReference(id));
    expect(transfer).toMatchObject({ amount: 50_000, status: 'success' });
    const recipient = paystack.recipients.find((r) => r.code === transfer?.recipient);
    expect(recipient).toMatchObject({
      accountNumber: player.bankAccountNumber,
      bankCode: '058',
      name: 'ADA OBI',
    });
    expect(await withdrawalRow(app, id)).toMatchObject({
      status: 'SUCCESSFUL',
      providerReference: transfer?.transferCode,
    });
    expect(await accountEntriesFor(app.db, `payout:${id}`)).toEqual(
      expect.arrayContaining([
        { account: ACCOUNTS.payoutClearing, userId: null, amount: -50_000n },
        { account: ACCOUNTS.bankPayouts, userId: null, amount: 50_000n },
      ]),
    );
    expect(await balanceOf(app.db, player.id)).toBe(45_000n);
    expect(await notificationTitles(app.db, player.id)).toEqual([
      'Withdrawal requested',
      'Withdrawal paid',
    ]);

    const twice = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/withdrawals/${id}/approve`,
      headers: adminHeaders,
      payload: { reviewNote: FIRST_PAYOUT_NOTE },
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This withdrawal has already been processed');
    expect(paystack.transfers.filter((t) => t.reference === transferReference(id))).toHaveLength(1);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('approving the same withdrawal twice at once sends one transfer', async () => {
    const { app, adminHeaders } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const id = (await withdraw(app, player, 300)).json().data.id as string;
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.inject({
          method: 'POST',
          url: `/api/v1/admin/withdrawals/${id}/approve`,
          headers: adminHeaders,
          payload: { reviewNote: FIRST_PAYOUT_NOTE },
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(paystack.transfers.filter((t) => t.reference === transferReference(id))).toHaveLength(1);
    expect(await balanceOf(app.db, player.id)).toBe(65_000n);
  });

  for (const [label, outcome] of [
    ['reports the transfer failed', { kind: 'status', status: 'failed' }],
    [
      'refuses the transfer',
      { kind: 'refuse', message: 'Your balance is not enough to fulfil this request' },
    ],
  ] as const) {
    it(`refunds amount + fee when Paystack ${label}`, async () => {
      const { app, adminHeaders } = await setup();
      const player = await createPlayer(app.db, { kobo: 100_000n });
      const id = (await withdraw(app, player, 400)).json().data.id as string;
      expect(await balanceOf(app.db, player.id)).toBe(55_000n);
      paystack.queueTransferOutcomes(outcome);
      const response = await app.inject({
        method: 'POST',
        url: `/api/v1/admin/withdrawals/${id}/approve`,
        headers: adminHeaders,
        payload: { reviewNote: FIRST_PAYOUT_NOTE },
      });
      expect(response.json().data).toMatchObject({ status: 'failed', internalStatus: 'FAILED' });
      expect(await balanceOf(app.db, player.id)).toBe(100_000n);
      expect(await accountEntriesFor(app.db, `withdrawal-refund:${id}`)).toEqual(
        expect.arrayContaining([
          { account: ACCOUNTS.wallet, userId: player.id, amount: 45_000n },
          { account: ACCOUNTS.payoutClearing, userId: null, amount: -40_000n },
          { account: ACCOUNTS.withdrawalFees, userId: null, amount: -FEE },
        ]),
      );
      expect(await notificationTitles(app.db, player.id)).toEqual([
        'Withdrawal requested',
        'Withdrawal failed',
      ]);
      expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
    });
  }

  it('keeps a transfer whose answer never came PROCESSING (no refund) until Paystack confirms it', async () => {
    const clock = testClock();
    const { app, adminHeaders } = await setup({ clock });
    const paidPlayer = await createPlayer(app.db, { kobo: 100_000n });
    const bouncedPlayer = await createPlayer(app.db, { kobo: 100_000n });
    const paidId = (await withdraw(app, paidPlayer, 500)).json().data.id as string;
    const bouncedId = (await withdraw(app, bouncedPlayer, 500)).json().data.id as string;

    // The connection drops after Paystack queued the transfer: the money may well have left.
    paystack.queueTransferOutcomes({ kind: 'hang-up' }, { kind: 'status', status: 'pending' });
    for (const id of [paidId, bouncedId]) {
      const response = await app.inject({
        method: 'POST',
        url: `/api/v1/admin/withdrawals/${id}/approve`,
        headers: adminHeaders,
        payload: { reviewNote: FIRST_PAYOUT_NOTE },
      });
      expect(response.json().data).toMatchObject({
        status: 'processing',
        internalStatus: 'PROCESSING',
      });
    }
    expect(await balanceOf(app.db, paidPlayer.id)).toBe(45_000n);
    expect(await balanceOf(app.db, bouncedPlayer.id)).toBe(45_000n);
    expect(await notificationTitles(app.db, paidPlayer.id)).toEqual([
      'Withdrawal requested',
      'Withdrawal processing',
    ]);

    // Paystack finishes them later and tells us with signed transfer webhooks.
    paystack.setTransferStatus(transferReference(paidId), 'success');
    paystack.setTransferStatus(transferReference(bouncedId), 'failed');
    const deliver = (delivery: { body: string; headers: Record<string, string> }) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/payment/webhook/paystack',
        headers: delivery.headers,
        payload: delivery.body,
      });
    await Promise.all(
      Array.from({ length: 3 }, () => [
        deliver(paystack.transferWebhook(transferReference(paidId), 'transfer.success')),
        deliver(paystack.transferWebhook(transferReference(bouncedId), 'transfer.failed')),
      ]).flat(),
    );
    expect((await withdrawalRow(app, paidId)).status).toBe('SUCCESSFUL');
    expect((await withdrawalRow(app, bouncedId)).status).toBe('FAILED');
    expect(await balanceOf(app.db, paidPlayer.id)).toBe(45_000n);
    expect(await balanceOf(app.db, bouncedPlayer.id)).toBe(100_000n);

    // A forged transfer webhook is refused.
    const forged = paystack.transferWebhook(transferReference(paidId), 'transfer.reversed');
    const refused = await deliver({
      body: forged.body,
      headers: { ...forged.headers, 'x-paystack-signature': '0'.repeat(128) },
    });
    expect(refused.statusCode).toBe(401);

    // Later the bank bounces the paid one back: reversed, amount + fee back in the wallet.
    paystack.setTransferStatus(transferReference(paidId), 'reversed');
    await deliver(paystack.transferWebhook(transferReference(paidId), 'transfer.reversed'));
    await deliver(paystack.transferWebhook(transferReference(paidId), 'transfer.reversed'));
    expect((await withdrawalRow(app, paidId)).status).toBe('FAILED');
    expect(await balanceOf(app.db, paidPlayer.id)).toBe(100_000n);
    expect(await notificationTitles(app.db, paidPlayer.id)).toEqual([
      'Withdrawal requested',
      'Withdrawal processing',
      'Withdrawal paid',
      'Withdrawal reversed',
    ]);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('the reconciliation job settles a transfer whose webhook never came', async () => {
    const clock = testClock();
    const { app, adminHeaders } = await setup({ clock });
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const id = (await withdraw(app, player, 250)).json().data.id as string;
    paystack.queueTransferOutcomes({ kind: 'status', status: 'pending' });
    await app.inject({
      method: 'POST',
      url: `/api/v1/admin/withdrawals/${id}/approve`,
      headers: adminHeaders,
      payload: { reviewNote: FIRST_PAYOUT_NOTE },
    });
    expect((await withdrawalRow(app, id)).status).toBe('PROCESSING');
    paystack.setTransferStatus(transferReference(id), 'success');
    clock.advance(6 * 60_000);
    await app.jobs.runDue();
    expect((await withdrawalRow(app, id)).status).toBe('SUCCESSFUL');
    expect(await balanceOf(app.db, player.id)).toBe(70_000n);
  });

  it('sends a transfer that never reached Paystack again, under the same reference, and only once', async () => {
    const clock = testClock();
    const { app, adminHeaders } = await setup({ clock });
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const id = (await withdraw(app, player, 250)).json().data.id as string;
    const sentUnder = () => paystack.transfers.filter((t) => t.reference === transferReference(id));

    // The connection drops before Paystack records anything: nothing was sent.
    paystack.queueTransferOutcomes({ kind: 'lost' });
    const approved = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/withdrawals/${id}/approve`,
      headers: adminHeaders,
      payload: { reviewNote: FIRST_PAYOUT_NOTE },
    });
    expect(approved.json().data).toMatchObject({ internalStatus: 'PROCESSING' });
    expect(sentUnder()).toHaveLength(0);

    // Reconciliation finds Paystack has never heard of it and sends it (default outcome: success).
    clock.advance(6 * 60_000);
    await app.jobs.runDue();
    expect(await withdrawalRow(app, id)).toMatchObject({ status: 'SUCCESSFUL' });
    expect(sentUnder()).toHaveLength(1);
    expect(sentUnder()[0]).toMatchObject({ amount: 25_000 });

    clock.advance(60 * 60_000);
    await app.jobs.runDue();
    expect(sentUnder()).toHaveLength(1);
    expect(await balanceOf(app.db, player.id)).toBe(70_000n);
    expect(await notificationTitles(app.db, player.id)).toEqual([
      'Withdrawal requested',
      'Withdrawal processing',
      'Withdrawal paid',
    ]);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('refunds a lost transfer that Paystack then refuses outright, since nothing was sent', async () => {
    const clock = testClock();
    const { app, adminHeaders } = await setup({ clock });
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const id = (await withdraw(app, player, 250)).json().data.id as string;
    paystack.queueTransferOutcomes(
      { kind: 'lost' },
      { kind: 'refuse', message: 'Your balance is not enough to fulfil this request' },
    );
    await app.inject({
      method: 'POST',
      url: `/api/v1/admin/withdrawals/${id}/approve`,
      headers: adminHeaders,
      payload: { reviewNote: FIRST_PAYOUT_NOTE },
    });
    expect((await withdrawalRow(app, id)).status).toBe('PROCESSING');

    clock.advance(6 * 60_000);
    await app.jobs.runDue();
    expect(await withdrawalRow(app, id)).toMatchObject({
      status: 'FAILED',
      reason: 'Your balance is not enough to fulfil this request',
    });
    expect(paystack.transfers.some((t) => t.reference === transferReference(id))).toBe(false);
    expect(await balanceOf(app.db, player.id)).toBe(100_000n);
    expect(await notificationTitles(app.db, player.id)).toEqual([
      'Withdrawal requested',
      'Withdrawal processing',
      'Withdrawal failed',
    ]);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('marks a withdrawal paid by hand without calling Paystack', async () => {
    const { app, admin, adminHeaders } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const id = (await withdraw(app, player, 500)).json().data.id as string;
    const response = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/withdrawals/${id}/approve`,
      headers: adminHeaders,
      payload: { paidReference: 'BANK-REF-0001', reviewNote: FIRST_PAYOUT_NOTE },
    });
    expect(response.json().data.internalStatus).toBe('SUCCESSFUL');
    expect(paystack.transfers.some((t) => t.reference === transferReference(id))).toBe(false);
    expect(await withdrawalRow(app, id)).toMatchObject({
      providerReference: 'BANK-REF-0001',
      decidedBy: admin.id,
    });
    // The service audits the decision with the reference and the note it was given.
    const audit = await app.db
      .select()
      .from(adminAudit)
      .where(and(eq(adminAudit.targetType, 'withdrawal'), eq(adminAudit.targetId, id)));
    expect(audit).toMatchObject([
      {
        adminId: admin.id,
        action: 'withdrawal.approve',
        before: { status: 'PENDING', holdReasons: ['new_payout_account'] },
        after: {
          status: 'SUCCESSFUL',
          paidReference: 'BANK-REF-0001',
          reviewNote: FIRST_PAYOUT_NOTE,
        },
      },
    ]);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('rejects with a reason: amount + fee refunded, once', async () => {
    const { app, adminHeaders } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const id = (await withdraw(app, player, 600)).json().data.id as string;
    expect(await balanceOf(app.db, player.id)).toBe(35_000n);
    const reject = () =>
      app.inject({
        method: 'POST',
        url: `/api/v1/admin/withdrawals/${id}/reject`,
        headers: adminHeaders,
        payload: { reason: 'Account name does not match' },
      });
    const responses = await Promise.all([reject(), reject(), reject()]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await balanceOf(app.db, player.id)).toBe(100_000n);
    expect(await withdrawalRow(app, id)).toMatchObject({
      status: 'REJECTED',
      reason: 'Account name does not match',
    });
    expect(await walletEntryCount(app.db, player.id)).toBe(3);
    expect(await notificationTitles(app.db, player.id)).toEqual([
      'Withdrawal requested',
      'Withdrawal rejected',
    ]);
    // A rejected withdrawal cannot be approved afterwards.
    const approve = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/withdrawals/${id}/approve`,
      headers: adminHeaders,
      payload: {},
    });
    expect(approve.statusCode).toBe(409);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('lists the queue for admins, pending first', async () => {
    const { app, adminHeaders } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const id = (await withdraw(app, player, 100)).json().data.id as string;
    // Other tests share the database: page through the pending queue to find this one.
    let mine: { id: string } | undefined;
    for (let page = 1; !mine && page <= 50; page += 1) {
      const queue = await app.inject({
        url: `/api/v1/admin/withdrawals?page=${page}&status=PENDING`,
        headers: adminHeaders,
      });
      expect(queue.statusCode).toBe(200);
      const list = queue.json().data.withdrawals as Array<{ id: string; status: string }>;
      expect(list.every((w) => w.status === 'PENDING')).toBe(true);
      if (list.length === 0) break;
      mine = list.find((w) => w.id === id);
    }
    expect(mine).toMatchObject({ amount: 100, fee: 50, status: 'PENDING', userId: player.id });
    const refused = await app.inject({
      url: '/api/v1/admin/withdrawals',
      headers: await bearerFor(app, player),
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('short references', () => {
  it('each withdrawal gets ten unique Crockford characters, on the receipt and in the queue', async () => {
    const { app, adminHeaders } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const first = (await withdraw(app, player, 100)).json().data;
    const second = (await withdraw(app, player, 100)).json().data;
    for (const made of [first, second]) {
      expect(made.shortReference).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
      // The long one stays: the provider's transfer reference.
      expect(made.reference).toBe(`wd-${made.id}`);
      expect((await withdrawalRow(app, made.id)).shortReference).toBe(made.shortReference);
    }
    expect(first.shortReference).not.toBe(second.shortReference);

    const history = await app.inject({
      url: '/api/v1/withdrawal',
      headers: await bearerFor(app, player),
    });
    expect(
      history.json().data.withdrawals.map((w: { shortReference: string }) => w.shortReference),
    ).toEqual([second.shortReference, first.shortReference]);

    // The console finds one by the reference as a player reads it out, or by the long one.
    const spoken = `${first.shortReference.slice(0, 5)} ${first.shortReference.slice(5)}`;
    for (const reference of [spoken.toLowerCase(), first.shortReference, first.reference]) {
      const found = await app.inject({
        url: `/api/v1/admin/withdrawals?reference=${encodeURIComponent(reference)}`,
        headers: adminHeaders,
      });
      expect(found.statusCode).toBe(200);
      expect(found.json().data.withdrawals).toEqual([
        expect.objectContaining({ id: first.id, shortReference: first.shortReference }),
      ]);
    }
    const none = await app.inject({
      url: '/api/v1/admin/withdrawals?reference=not-a-reference',
      headers: adminHeaders,
    });
    expect(none.json().data.withdrawals).toEqual([]);
  });

  it('draws another short reference when the one drawn is taken', async () => {
    const { app } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const taken = (await withdraw(app, player, 100)).json().data.shortReference as string;
    const fresh = newShortReference();
    const draws = [taken, fresh];
    const row = await insertWithShortReference(
      async (shortReference) => {
        const [inserted] = await app.db
          .insert(withdrawals)
          .values({
            shortReference,
            userId: player.id,
            amount: 10_000n,
            fee: 5_000n,
            bankCode: '058',
            bankName: 'Guaranty Trust Bank',
            accountNumber: '0123456789',
            accountName: 'ADA OBI',
          })
          .onConflictDoNothing({ target: withdrawals.shortReference })
          .returning();
        return inserted;
      },
      () => draws.shift() ?? newShortReference(),
    );
    expect(row.shortReference).toBe(fresh);
    expect(draws).toEqual([]);
    // Not a real withdrawal: gone again, so the ledger check of the other tests stays true.
    await app.db.delete(withdrawals).where(eq(withdrawals.id, row.id));
  });
});

describe('bank account', () => {
  it('resolves the account name with Paystack and saves it, with a notice and an e-mail', async () => {
    const { app } = await setup();
    const user = await createUser(app.db);
    const bank = await bankByCode(app.db, '044');
    const accountNumber = validNuban('044');
    paystack.addAccount('044', accountNumber, 'CHINEDU OKAFOR');
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/bank-account',
      headers: await bearerFor(app, user),
      payload: { bankID: bank.id, accountNumber },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      message: 'Bank account saved',
      data: { bankID: bank.id, accountNumber, accountName: 'CHINEDU OKAFOR' },
    });
    const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({
      bankId: bank.id,
      bankAccountNumber: accountNumber,
      bankAccountName: 'CHINEDU OKAFOR',
    });
    // The first account is added, not changed.
    expect(await notificationTitles(app.db, user.id)).toEqual(['Bank account added']);
    const mail = await smtp.waitForMail(user.email);
    expect(mail.subject).toBe('A withdrawal bank account was added');
    expect(mail.text).toContain(`CHINEDU OKAFOR, Access Bank ${accountNumber}`);

    // The saved account is where the next withdrawal goes.
    const funded = await createPlayer(app.db, { kobo: 50_000n, bank: null, overrides: {} });
    await app.db
      .update(users)
      .set({ bankId: bank.id, bankAccountNumber: accountNumber, bankAccountName: 'CHINEDU OKAFOR' })
      .where(eq(users.id, funded.id));
    const withdrawal = await withdraw(app, funded, 100);
    expect(await withdrawalRow(app, withdrawal.json().data.id)).toMatchObject({
      bankCode: '044',
      accountNumber,
      accountName: 'CHINEDU OKAFOR',
    });
  });

  it('refuses a wrong check digit, an unknown bank and an account Paystack cannot resolve', async () => {
    const { app } = await setup();
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    const bank = await bankByCode(app.db, '058');
    const valid = validNuban('058');
    const save = (payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/api/v1/bank-account', headers, payload });

    for (const accountNumber of invalidNubans(valid)) {
      const response = await save({ bankID: bank.id, accountNumber });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Enter a valid 10-digit account number for this bank');
    }
    expect((await save({ bankID: bank.id, accountNumber: '12345' })).json().message).toBe(
      'Account number must be 10 digits',
    );
    const unknownBank = await save({
      bankID: '00000000-0000-0000-0000-000000000000',
      accountNumber: valid,
    });
    expect(unknownBank.json().message).toBe('Choose a bank from the list');
    expect((await save({ bankID: 'not-a-uuid', accountNumber: valid })).json().message).toBe(
      'Choose a bank from the list',
    );

    // A valid number Paystack has no account for.
    const unresolved = await save({ bankID: bank.id, accountNumber: valid });
    expect(unresolved.statusCode).toBe(400);
    expect(unresolved.json().message).toBe(
      'We could not verify this account number with the bank. Check it and try again.',
    );
    const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.bankAccountNumber).toBeNull();
  });

  it('in sandbox mode uses the player’s own name', async () => {
    const { app } = await setup({ env: {} });
    const user = await createUser(app.db, { fullname: 'Ngozi Adaeze Bello' });
    const bank = await bankByCode(app.db, '033');
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/bank-account',
      headers: await bearerFor(app, user),
      payload: { bankID: bank.id, accountNumber: validNuban('033') },
    });
    expect(response.json().data.accountName).toBe('NGOZI ADAEZE BELLO');
  });
});
