import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { adminAudit, payments, withdrawals } from '../../db/schema.ts';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createAdmin, createPlayer } from '../../test/factories.ts';
import { balanceOf, reviewSandboxTopUpsOf } from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { topUpFlow } from '../../test/top-ups.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

/**
 * Sandbox credits found in a live system (the database ran with the sandbox on, then went
 * live): the ledger check fails, payouts are refused, until an operator reviews each one.
 * The same database is served first by a sandbox app, then by a live (fake Paystack) one.
 */
const database = testDatabasePerFile({ alone: true });
let paystack: FakePaystack;
beforeAll(async () => {
  paystack = await startFakePaystack();
});
afterAll(() => paystack.close());

const PUBLIC_URL = 'http://localhost:3999';
/** The same database served with the sandbox on, and live (a fake Paystack). */
const sandboxFileApp = testAppPerFile(database, { PUBLIC_URL });
const liveFileApp = testAppPerFile(database, () => ({ ...paystack.env, PUBLIC_URL }));

/** A real sandbox top-up: start it, press Pay on the sandbox checkout. */
async function sandboxTopUp(app: FastifyInstance, headers: Record<string, string>, naira: number) {
  const flow = topUpFlow(app, headers, PUBLIC_URL);
  const { paymentUrl, reference } = await flow.start(naira, 'transactpay');
  await flow.paySandbox(paymentUrl);
  return reference;
}

const SANDBOX_INVARIANT = 'no_unreviewed_sandbox_money_in_live_system';

describe('sandbox money in a live system', () => {
  it('fails the ledger check and pauses payouts until an operator reviews it', async () => {
    const sandboxApp = sandboxFileApp();
    const player = await createPlayer(sandboxApp.db);
    const playerHeaders = await bearerFor(sandboxApp, player);
    const reference = await sandboxTopUp(sandboxApp, playerHeaders, 20_000);
    expect(await balanceOf(sandboxApp.db, player.id)).toBe(2_000_000n);
    const [row] = await sandboxApp.db
      .select()
      .from(payments)
      .where(eq(payments.reference, reference));
    expect(row).toMatchObject({ status: 'SUCCESS', mode: 'sandbox', sandboxReviewedAt: null });
    // While the server runs the sandbox, sandbox money is expected.
    expect((await checkLedger(sandboxApp.db, sandboxApp.paymentProviders)).ok).toBe(true);

    const live = liveFileApp();
    const failing = (await checkLedger(live.db, live.paymentProviders)).invariants.filter(
      (invariant) => !invariant.ok,
    );
    expect(failing.map((invariant) => invariant.name)).toEqual([SANDBOX_INVARIANT]);
    expect(failing[0]?.offending).toContainEqual(
      expect.objectContaining({ reference, user_id: player.id, amount: '2000000' }),
    );

    const withdrawal = await live.inject({
      method: 'POST',
      url: '/api/v1/withdrawal',
      headers: playerHeaders,
      payload: { amount: 10_000 },
    });
    expect(withdrawal.statusCode, withdrawal.body).toBe(201);
    const withdrawalId = withdrawal.json().data.id as string;
    const admin = await createAdmin(live.db);
    const adminHeaders = await bearerFor(live, admin);
    const approve = (body: { paidReference?: string; reviewNote?: string }) =>
      live.inject({
        method: 'POST',
        url: `/api/v1/admin/withdrawals/${withdrawalId}/approve`,
        headers: adminHeaders,
        payload: body,
      });
    for (const body of [{}, { paidReference: 'BANK-REF-12345' }]) {
      const refused = await approve(body);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toEqual({
        message:
          'Payouts are paused: 1 sandbox top-up (₦20,000 of test money) has not been reviewed. Review them under Sandbox payments in the console first.',
        statusCode: 409,
        code: 'CONFLICT',
      });
    }
    const [still] = await live.db
      .select()
      .from(withdrawals)
      .where(eq(withdrawals.id, withdrawalId));
    expect(still?.status).toBe('PENDING');
    expect(paystack.transfers.filter((t) => t.reference === `wd-${withdrawalId}`)).toEqual([]);

    const list = await live.inject({
      url: '/api/v1/admin/sandbox-payments',
      headers: adminHeaders,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toMatchObject({ sandbox: false, blocksPayouts: true });
    expect(list.json().data.unreviewed).toBe(1);
    expect(list.json().data.payments).toContainEqual(
      expect.objectContaining({ reference, userId: player.id, amount: 20_000, reviewedAt: null }),
    );
    // Players cannot see or review it.
    const asPlayer = await live.inject({
      url: '/api/v1/admin/sandbox-payments',
      headers: playerHeaders,
    });
    expect(asPlayer.statusCode).toBe(403);

    const review = (note: unknown) =>
      live.inject({
        method: 'POST',
        url: `/api/v1/admin/sandbox-payments/${reference}/review`,
        headers: adminHeaders,
        payload: { note },
      });
    const noNote = await review('  ');
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().message).toBe('Write a note of at least 5 characters');
    const note = 'Took the ₦20,000 back with a balance adjustment';
    const reviewed = await review(note);
    expect(reviewed.statusCode, reviewed.body).toBe(200);
    const again = await review(note);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This sandbox top-up has already been reviewed');
    const unknown = await live.inject({
      method: 'POST',
      url: '/api/v1/admin/sandbox-payments/PLK-NO-SUCH-TOP-UP/review',
      headers: adminHeaders,
      payload: { note },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('No successful sandbox top-up has this reference');
    const [audit] = await live.db
      .select()
      .from(adminAudit)
      .where(
        and(eq(adminAudit.action, 'payment.sandbox_review'), eq(adminAudit.targetId, reference)),
      );
    expect(audit).toMatchObject({ adminId: admin.id, after: expect.objectContaining({ note }) });
    const [marked] = await live.db.select().from(payments).where(eq(payments.reference, reference));
    expect(marked).toMatchObject({ sandboxReviewedBy: admin.id, sandboxReviewNote: note });

    expect((await checkLedger(live.db, live.paymentProviders)).ok).toBe(true);
    // Topped up and withdrawn without play, to a new account: held, so the operator writes why.
    const approved = await approve({ reviewNote: 'Test money reviewed; account checked' });
    expect(approved.statusCode, approved.body).toBe(200);
  });

  it('reports sandbox top-ups apart from deposits, and shows each payment’s mode', async () => {
    const sandboxApp = sandboxFileApp();
    const admin = await createAdmin(sandboxApp.db);
    const adminHeaders = await bearerFor(sandboxApp, admin);
    const report = async () => {
      const response = await sandboxApp.inject({
        url: '/api/v1/admin/reports',
        headers: adminHeaders,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data as {
        totals: { deposits: number; sandboxDeposits: number };
        daily: Array<{ deposits: number; sandboxDeposits: number }>;
      };
    };
    const before = await report();
    const player = await createPlayer(sandboxApp.db);
    onTestFinished(() => reviewSandboxTopUpsOf(sandboxApp.db, player.id));
    await sandboxTopUp(sandboxApp, await bearerFor(sandboxApp, player), 1_234);

    const live = liveFileApp();
    const started = await live.inject({
      method: 'POST',
      url: '/api/v1/payment/paystack',
      headers: await bearerFor(live, player),
      payload: { amount: 5_000 },
    });
    const { reference } = started.json().data as { reference: string };
    paystack.markPaid(reference);
    await live.inject({ url: `/api/v1/payment/callback/paystack?reference=${reference}` });

    const after = await report();
    expect(after.totals.deposits - before.totals.deposits).toBe(5_000);
    expect(after.totals.sandboxDeposits - before.totals.sandboxDeposits).toBe(1_234);
    expect(after.daily.at(-1)?.sandboxDeposits).toBeGreaterThanOrEqual(1_234);

    const detail = await sandboxApp.inject({
      url: `/api/v1/admin/users/${player.id}`,
      headers: adminHeaders,
    });
    expect(
      (detail.json().data.payments as Array<{ method: string; mode: string }>)
        .map(({ method, mode }) => `${method}:${mode}`)
        .sort(),
    ).toEqual(['paystack:live', 'transactpay:sandbox']);
  });
});
