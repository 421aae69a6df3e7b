import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAudit, gameWinners, settings, withdrawals } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bankByCode,
  bearerFor,
  createAdmin,
  createGame,
  createPlayer,
  play,
  type TestClock,
  testClock,
  type UserRow,
  validNuban,
} from '../../test/factories.ts';
import { balanceOf, notificationTitles } from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { testPasswordHash } from '../../test/passwords.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';
import { checkLedger } from '../wallet/ledger-check.ts';
import { transferReference } from './serialize.ts';

/**
 * Anti-money-laundering holds on real flows: top-ups through (fake) Paystack checkouts, plays,
 * a draw, bank accounts saved through the API, withdrawals, and the operator's decisions.
 */
const database = testDatabasePerFile();
const PASSWORD = 'Correct-Horse-Battery';
let paystack: FakePaystack;
let smtp: TestSmtpServer;
let passwordHash: string;
beforeAll(async () => {
  [paystack, smtp, passwordHash] = await Promise.all([
    startFakePaystack(),
    startSmtpServer(),
    testPasswordHash(PASSWORD),
  ]);
});
afterAll(async () => {
  await Promise.all([paystack.close(), smtp.close()]);
});

async function setup(clock?: TestClock) {
  const app = await buildTestApp(database(), { ...paystack.env, SMTP_URL: smtp.url }, { clock });
  const adminHeaders = await bearerFor(app, await createAdmin(app.db));
  return { app, adminHeaders };
}

/** A card top-up as the player makes it: checkout, paid at Paystack, back through the callback. */
async function topUp(app: FastifyInstance, user: UserRow, naira: number) {
  const started = await app.inject({
    method: 'POST',
    url: '/api/v1/payment/paystack',
    headers: await bearerFor(app, user),
    payload: { amount: naira },
  });
  expect(started.statusCode, started.body).toBe(200);
  const { reference } = started.json().data as { reference: string };
  paystack.markPaid(reference);
  const back = await app.inject({
    url: `/api/v1/payment/callback/paystack?reference=${encodeURIComponent(reference)}`,
  });
  expect(new URL(String(back.headers.location), 'https://x.test').searchParams.get('status')).toBe(
    'success',
  );
}

async function withdraw(app: FastifyInstance, user: UserRow, naira: number) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/withdrawal',
    headers: await bearerFor(app, user),
    payload: { amount: naira },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response;
}

async function holdReasonsOf(app: FastifyInstance, id: string) {
  const [row] = await app.db
    .select({ holdReasons: withdrawals.holdReasons })
    .from(withdrawals)
    .where(eq(withdrawals.id, id));
  if (!row) throw new Error(`no withdrawal ${id}`);
  return row.holdReasons;
}

/** Withdraws and returns the stored hold reasons. */
async function heldFor(app: FastifyInstance, user: UserRow, naira: number) {
  const response = await withdraw(app, user, naira);
  return holdReasonsOf(app, response.json().data.id as string);
}

function approve(
  app: FastifyInstance,
  adminHeaders: Record<string, string>,
  id: string,
  body: Record<string, unknown> = {},
) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/admin/withdrawals/${id}/approve`,
    headers: adminHeaders,
    payload: body,
  });
}

async function auditOf(app: FastifyInstance, id: string) {
  return app.db
    .select()
    .from(adminAudit)
    .where(and(eq(adminAudit.targetType, 'withdrawal'), eq(adminAudit.targetId, id)));
}

describe('deposit then withdraw with little play', () => {
  it('holds a loser who hardly played their top-up, not the winner whose prize pays it', async () => {
    const { app } = await setup();
    // Five players top up ₦5,000 each and play one ₦100 game (2% of their top-ups).
    const players = await Promise.all(Array.from({ length: 5 }, () => createPlayer(app.db)));
    for (const player of players) await topUp(app, player, 5_000);
    const game = await createGame(app.db, {
      entryFee: 10_000n,
      reward: 300_000n,
      maximumPlayers: 5,
    });
    for (const player of players) expect((await play(app, player, game.id)).statusCode).toBe(201);
    expect(await app.jobs.runDue()).toBeGreaterThanOrEqual(1);
    const [won] = await app.db.select().from(gameWinners).where(eq(gameWinners.gameId, game.id));
    const winnerId = won?.userId;
    const winner = players.find((player) => player.id === winnerId);
    const loser = players.find((player) => player.id !== winnerId);
    if (!winner || !loser) throw new Error('the draw named no winner');

    // The winner's ₦3,000 prize covers at least half of ₦4,000: not deposit-then-withdraw.
    expect(await heldFor(app, winner, 4_000)).not.toContain('deposit_little_play');
    // The loser's ₦4,000 is their own top-up, hardly played.
    expect(await heldFor(app, loser, 4_000)).toContain('deposit_little_play');
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('does not hold a player whose entry fees reach 20% of their top-ups', async () => {
    const { app } = await setup();
    const player = await createPlayer(app.db);
    await topUp(app, player, 2_500);
    // ₦500 of entry fees on ₦2,500 of top-ups: exactly 20%, which is play enough.
    const game = await createGame(app.db, { entryFee: 50_000n, maximumPlayers: 50 });
    expect((await play(app, player, game.id)).statusCode).toBe(201);
    expect(await heldFor(app, player, 1_900)).not.toContain('deposit_little_play');

    const idle = await createPlayer(app.db);
    await topUp(app, idle, 2_500);
    const cheap = await createGame(app.db, { entryFee: 49_900n, maximumPlayers: 50 });
    expect((await play(app, idle, cheap.id)).statusCode).toBe(201);
    // ₦499 is just under 20%.
    expect(await heldFor(app, idle, 1_900)).toContain('deposit_little_play');
  });

  it('does not hold money that did not come from top-ups in the last 30 days', async () => {
    const clock = testClock();
    const { app } = await setup(clock);
    const player = await createPlayer(app.db);
    await topUp(app, player, 3_000);
    expect(await heldFor(app, player, 1_000)).toContain('deposit_little_play');
    clock.advance(31 * 24 * 3_600_000);
    expect(await heldFor(app, player, 1_000)).not.toContain('deposit_little_play');
    // Credited by an operator (or a prize long ago), not a top-up: no deposit to speak of.
    const credited = await createPlayer(app.db, { kobo: 300_000n });
    expect(await heldFor(app, credited, 2_000)).not.toContain('deposit_little_play');
  });
});

describe('many small top-ups', () => {
  it('holds after five successful top-ups under ₦2,000 in 24 hours, not four', async () => {
    const { app } = await setup();
    const five = await createPlayer(app.db);
    for (let i = 0; i < 5; i += 1) await topUp(app, five, 1_999);
    expect(await heldFor(app, five, 500)).toContain('small_top_ups');

    const four = await createPlayer(app.db);
    for (let i = 0; i < 4; i += 1) await topUp(app, four, 1_999);
    // ₦2,000 is not small.
    await topUp(app, four, 2_000);
    expect(await heldFor(app, four, 500)).not.toContain('small_top_ups');
  });

  it('forgets small top-ups older than 24 hours', async () => {
    const clock = testClock();
    const { app } = await setup(clock);
    const player = await createPlayer(app.db);
    for (let i = 0; i < 5; i += 1) await topUp(app, player, 1_000);
    clock.advance(24 * 3_600_000 + 1_000);
    expect(await heldFor(app, player, 500)).not.toContain('small_top_ups');
  });
});

describe('withdrawal at or above the review threshold', () => {
  it('holds from settings.aml_review_threshold up, not a kobo below', async () => {
    const { app } = await setup();
    const [row] = await app.db
      .select({ threshold: settings.amlReviewThreshold })
      .from(settings)
      .where(eq(settings.id, 1));
    const threshold = Number(row?.threshold) / 100;
    // Tier 3 (operator-reviewed identity) so the KYC daily cap leaves room for large amounts.
    const overrides = { kycTier: 3, verifiedName: 'Ada Obi' };
    const player = await createPlayer(app.db, { kobo: 3_000_000_00n, overrides });
    expect(await heldFor(app, player, threshold)).toContain('large_amount');
    expect(await heldFor(app, player, threshold - 0.01)).not.toContain('large_amount');
  });
});

describe('new payout account', () => {
  it('holds the first payout to an account, not the next one; a changed account is new again', async () => {
    const { app, adminHeaders } = await setup();
    const player = await createPlayer(app.db, {
      kobo: 500_000n,
      bank: null,
      overrides: { passwordHash, fullname: 'Ada Obi' },
    });
    const headers = await bearerFor(app, player);
    const bank = await bankByCode(app.db, '058');
    const first = validNuban('058');
    paystack.addAccount('058', first, 'ADA OBI');
    const saved = await app.inject({
      method: 'POST',
      url: '/api/v1/bank-account',
      headers,
      payload: { bankID: bank.id, accountNumber: first },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const held = await withdraw(app, player, 500);
    const heldId = held.json().data.id as string;
    expect(await holdReasonsOf(app, heldId)).toEqual(['new_payout_account']);
    // Still held while the first payout waits: nothing has reached the account yet.
    expect(await heldFor(app, player, 300)).toEqual(['new_payout_account']);
    const paid = await approve(app, adminHeaders, heldId, {
      reviewNote: 'Name matches the player',
    });
    expect(paid.json().data).toMatchObject({ internalStatus: 'SUCCESSFUL' });
    expect(await heldFor(app, player, 400)).toEqual([]);

    const other = await bankByCode(app.db, '044');
    const second = validNuban('044');
    paystack.addAccount('044', second, 'ADA OBI');
    const changed = await app.inject({
      method: 'POST',
      url: '/api/v1/bank-account',
      headers,
      payload: { bankID: other.id, accountNumber: second, currentPassword: PASSWORD },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await heldFor(app, player, 200)).toEqual(['new_payout_account']);
  });
});

describe('an operator deciding a held withdrawal', () => {
  it('refuses to approve without a review note and changes nothing; with one it pays and audits', async () => {
    const { app, adminHeaders } = await setup();
    const player = await createPlayer(app.db);
    await topUp(app, player, 3_000);
    const response = await withdraw(app, player, 2_000);
    const id = response.json().data.id as string;
    expect(await holdReasonsOf(app, id)).toEqual(['deposit_little_play', 'new_payout_account']);
    const balance = await balanceOf(app.db, player.id);
    const transfersBefore = paystack.transfers.length;

    for (const body of [{}, { reviewNote: '  ' }, { paidReference: 'BANK-REF-1' }]) {
      const refused = await approve(app, adminHeaders, id, body);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().message).toBe(
        'reviewNote' in body
          ? 'Write a review note of at least 3 characters'
          : 'This withdrawal is held for review: write a review note saying why it may be paid',
      );
    }
    const [untouched] = await app.db.select().from(withdrawals).where(eq(withdrawals.id, id));
    expect(untouched).toMatchObject({ status: 'PENDING', decidedBy: null, decidedAt: null });
    expect(await balanceOf(app.db, player.id)).toBe(balance);
    expect(paystack.transfers.length).toBe(transfersBefore);
    expect(await auditOf(app, id)).toEqual([]);

    const note = 'Called the player: savings moved back to their own bank';
    const approved = await approve(app, adminHeaders, id, { reviewNote: note });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toMatchObject({ id, internalStatus: 'SUCCESSFUL' });
    expect(approved.json().data).not.toHaveProperty('holdReasons');
    expect(paystack.transfers.find((t) => t.reference === transferReference(id))).toBeTruthy();
    const [entry] = await auditOf(app, id);
    expect(entry).toMatchObject({
      action: 'withdrawal.approve',
      before: { status: 'PENDING', holdReasons: ['deposit_little_play', 'new_payout_account'] },
      after: { status: 'SUCCESSFUL', paidReference: null, reviewNote: note },
    });
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('audits a rejection with the hold reasons and the reason given', async () => {
    const { app, adminHeaders } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const id = (await withdraw(app, player, 500)).json().data.id as string;
    const rejected = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/withdrawals/${id}/reject`,
      headers: adminHeaders,
      payload: { reason: 'The account is not in the player’s name' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await balanceOf(app.db, player.id)).toBe(100_000n);
    const [entry] = await auditOf(app, id);
    expect(entry).toMatchObject({
      action: 'withdrawal.reject',
      before: { status: 'PENDING', holdReasons: ['new_payout_account'] },
      after: { status: 'REJECTED', reason: 'The account is not in the player’s name' },
    });
  });

  it('approves a withdrawal nothing held without a note, as before', async () => {
    const { app, adminHeaders } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const first = (await withdraw(app, player, 300)).json().data.id as string;
    await approve(app, adminHeaders, first, { reviewNote: 'First payout to this account' });
    const second = (await withdraw(app, player, 200)).json().data.id as string;
    expect(await holdReasonsOf(app, second)).toEqual([]);
    const approved = await approve(app, adminHeaders, second);
    expect(approved.statusCode, approved.body).toBe(200);
    const [entry] = await auditOf(app, second);
    expect(entry).toMatchObject({
      before: { status: 'PENDING', holdReasons: [] },
      after: { reviewNote: null },
    });
  });
});

describe('the dashboard report', () => {
  it('counts the withdrawals held in its range per reason, and those still pending', async () => {
    const { app, adminHeaders } = await setup();
    const report = async () => {
      const response = await app.inject({ url: '/api/v1/admin/reports', headers: adminHeaders });
      expect(response.statusCode, response.body).toBe(200);
      const holds = response.json().data.holds as {
        code: string;
        text: string;
        withdrawals: number;
        amount: number;
        pending: number;
      }[];
      return (code: string) =>
        holds.find((hold) => hold.code === code) ?? { withdrawals: 0, amount: 0, pending: 0 };
    };
    const earlier = await report();
    const player = await createPlayer(app.db);
    await topUp(app, player, 3_000);
    await withdraw(app, player, 2_000);
    const later = await report();
    // Other files' withdrawals may land in the same range on the PostgreSQL run: at least ours.
    for (const code of ['deposit_little_play', 'new_payout_account']) {
      expect(later(code).withdrawals).toBeGreaterThanOrEqual(earlier(code).withdrawals + 1);
      expect(later(code).pending).toBeGreaterThanOrEqual(earlier(code).pending + 1);
      expect(later(code).amount).toBeGreaterThanOrEqual(earlier(code).amount + 2_000);
    }
    expect(later('new_payout_account')).toMatchObject({
      text: 'New payout account: nothing has been paid to this bank account for this player before',
    });
  });
});

describe('who sees the hold', () => {
  it('operators see the reasons and can list held withdrawals only; the player sees a plain pending one', async () => {
    const { app, adminHeaders } = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const first = (await withdraw(app, player, 300)).json().data.id as string;
    await approve(app, adminHeaders, first, { reviewNote: 'First payout to this account' });
    const clean = await withdraw(app, player, 200);
    const cleanId = clean.json().data.id as string;
    const smallPlayer = await createPlayer(app.db);
    for (let i = 0; i < 5; i += 1) await topUp(app, smallPlayer, 1_000);
    const held = await withdraw(app, smallPlayer, 4_000);
    const heldId = held.json().data.id as string;

    // The player's answers and notices are those of any pending withdrawal.
    expect(held.json().message).toBe(clean.json().message);
    expect(Object.keys(held.json().data).sort()).toEqual(Object.keys(clean.json().data).sort());
    const history = await app.inject({
      url: '/api/v1/withdrawal?page=1',
      headers: await bearerFor(app, smallPlayer),
    });
    expect(history.json().data.withdrawals).toEqual([
      {
        id: heldId,
        reference: `wd-${heldId}`,
        shortReference: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{10}$/),
        amount: 4_000,
        fee: 50,
        status: 'pending',
        bankName: expect.any(String),
        accountNumber: expect.any(String),
        accountName: expect.any(String),
        createdAt: expect.any(String),
      },
    ]);
    expect(history.body).not.toMatch(/hold|review/i);
    expect(await notificationTitles(app.db, smallPlayer.id)).toContain('Withdrawal requested');

    // Every page of the queue (on the PostgreSQL run other files' withdrawals share it).
    const list = async (query: string) => {
      const rows: { id: string; holdReasons: unknown[] }[] = [];
      for (let page = 1; ; page += 1) {
        const response = await app.inject({
          url: `/api/v1/admin/withdrawals?${query}&page=${page}`,
          headers: adminHeaders,
        });
        expect(response.statusCode, response.body).toBe(200);
        const { withdrawals: found, pagination } = response.json().data;
        rows.push(...found);
        if (page >= pagination.totalPages) return rows;
      }
    };
    const all = await list('status=PENDING');
    expect(all.find((w) => w.id === heldId)?.holdReasons).toEqual([
      {
        code: 'deposit_little_play',
        text: 'Deposit then withdraw with little play: in the last 30 days entry fees were under 20% of top-ups, and winnings cover less than half of this withdrawal',
      },
      {
        code: 'small_top_ups',
        text: 'Many small top-ups: 5 or more successful top-ups under ₦2,000 in the 24 hours before',
      },
      {
        code: 'new_payout_account',
        text: 'New payout account: nothing has been paid to this bank account for this player before',
      },
    ]);
    expect(all.find((w) => w.id === cleanId)?.holdReasons).toEqual([]);
    const heldOnly = await list('status=PENDING&held=true');
    expect(heldOnly.map((w) => w.id)).toContain(heldId);
    expect(heldOnly.map((w) => w.id)).not.toContain(cleanId);
    expect(heldOnly.every((w) => w.holdReasons.length > 0)).toBe(true);
    const notHeld = await list('status=PENDING&held=false');
    expect(notHeld.map((w) => w.id)).toContain(cleanId);
    expect(notHeld.every((w) => w.holdReasons.length === 0)).toBe(true);
    // The player's page in the console lists them with their withdrawals too.
    const detail = await app.inject({
      url: `/api/v1/admin/users/${smallPlayer.id}`,
      headers: adminHeaders,
    });
    expect(detail.json().data.withdrawals).toEqual([
      expect.objectContaining({
        id: heldId,
        holdReasons: all.find((w) => w.id === heldId)?.holdReasons,
      }),
    ]);
    const bad = await app.inject({
      url: '/api/v1/admin/withdrawals?held=maybe',
      headers: adminHeaders,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('held must be true or false');
  });
});
