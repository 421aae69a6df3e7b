import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAudit, payments } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createAdmin,
  createUser,
  type TestClock,
  testClock,
} from '../../test/factories.ts';
import { type FakeFlutterwave, startFakeFlutterwave } from '../../test/fake-flutterwave.ts';
import { accountEntriesFor, balanceOf, notificationsTitled } from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { type FakeTransactPay, startFakeTransactPay } from '../../test/fake-transactpay.ts';
import { expectLedgerHolds, topUpFlow } from '../../test/top-ups.ts';

/**
 * Deposit limits decided by the money that lands: a payment that completes and would take the
 * player past a limit of the period it lands in is refunded through the provider (Paystack,
 * Flutterwave) or held for the operators (TransactPay, which offers no refund API), never
 * credited and never lost.
 */
const database = testDatabasePerFile();
let paystack: FakePaystack;
let flutterwave: FakeFlutterwave;
let transactpay: FakeTransactPay;
beforeAll(async () => {
  [paystack, flutterwave, transactpay] = await Promise.all([
    startFakePaystack(),
    startFakeFlutterwave(),
    startFakeTransactPay(),
  ]);
});
afterAll(() => Promise.all([paystack.close(), flutterwave.close(), transactpay.close()]));

// A Wednesday, 10:00 in Lagos.
const WEDNESDAY = new Date('2026-12-02T09:00:00Z');
const MINUTE = 60_000;

const providersEnv = () => ({ ...paystack.env, ...flutterwave.env, ...transactpay.env });
/** The app of the tests that do not move the clock: it stays at WEDNESDAY. */
const fileApp = testAppPerFile(database, providersEnv, { clock: testClock(WEDNESDAY) });

/** A player on the file's app. */
function setup() {
  return playerOn(fileApp());
}

/** A player on an app of the test's own, on a clock from `start` that the test moves. */
async function setupWithClock(start: Date = WEDNESDAY) {
  const clock: TestClock = testClock(start);
  const app = await buildTestApp(database(), providersEnv(), { clock });
  return { ...(await playerOn(app)), clock };
}

async function playerOn(app: FastifyInstance) {
  const user = await createUser(app.db);
  const headers = await bearerFor(app, user);
  const flow = topUpFlow(app, headers);
  const setLimit = async (period: string, amount: number) => {
    const response = await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers,
      payload: { kind: 'deposit', period, amount },
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const depositLimit = async (period: string) => {
    const response = await app.inject({ url: '/api/v1/responsible-play', headers });
    return (
      response.json().data.limits as Array<{ kind: string; period: string; used: number }>
    ).find((row) => row.kind === 'deposit' && row.period === period);
  };
  const history = async () => {
    const response = await app.inject({ url: '/api/v1/payment?page=1', headers });
    return response.json().data.payments as Array<{ reference: string; status: string }>;
  };
  const statusOf = async (reference: string) =>
    (await history()).find((row) => row.reference === reference)?.status;
  return { app, user, headers, flow, setLimit, depositLimit, history, statusOf };
}

/** The audit entries about one payment, oldest first. */
async function auditOf(app: FastifyInstance, reference: string) {
  return app.db
    .select({
      adminId: adminAudit.adminId,
      action: adminAudit.action,
      before: adminAudit.before,
      after: adminAudit.after,
    })
    .from(adminAudit)
    .where(eq(adminAudit.targetId, reference))
    .orderBy(adminAudit.id);
}

describe('deposit limits decided by the money that lands', () => {
  it('Paystack: a failed checkout paid late, after another filled the limit, is refunded, not credited', async () => {
    const { app, user, flow, setLimit, depositLimit, statusOf } = await setup();
    await setLimit('day', 1000);
    const first = await flow.start(1000, 'paystack');
    paystack.markFailed(first.reference, 'Declined');
    expect((await flow.callback(`paystack?reference=${first.reference}`)).status).toBe('failed');
    // The failed checkout no longer counts, so a second one opens and is paid.
    const second = await flow.start(1000, 'paystack');
    paystack.markPaid(second.reference);
    expect((await flow.callback(`paystack?reference=${second.reference}`)).status).toBe('success');

    // The customer pays the first checkout after all (another card on the same link).
    paystack.markPaid(first.reference);
    const late = await flow.callback(`paystack?reference=${first.reference}`);
    expect(late).toEqual({
      status: 'failed',
      message:
        '₦1,000 was refunded: it would have taken you past your daily deposit limit of ₦1,000, so it went back through Paystack instead of into your wallet.',
    });
    expect(await balanceOf(app.db, user.id)).toBe(100_000n);
    // The file's fake Paystack also keeps the refunds of the tests that ran before.
    const refunds = () =>
      paystack.refunds.filter((r) => [first.reference, second.reference].includes(r.reference));
    expect(refunds()).toEqual([
      expect.objectContaining({ reference: first.reference, amount: 100_000 }),
    ]);
    expect(await flow.row(first.reference)).toMatchObject({ status: 'REFUNDED' });
    // Asked again (a repeated webhook), nothing more happens.
    await flow.callback(`paystack?reference=${first.reference}`);
    expect(refunds()).toHaveLength(1);
    expect(await statusOf(first.reference)).toBe('refunded');
    expect(await depositLimit('day')).toMatchObject({ used: 1000 });
    expect(await notificationsTitled(app.db, user.id, 'Top-up refunded')).toHaveLength(1);
    // Held on the way out and returned: nothing stays in the held account.
    expect(await accountEntriesFor(app.db, `hold:paystack:${first.reference}`)).toHaveLength(2);
    // The operators' trail has both steps, as the server's own actions.
    expect(await auditOf(app, first.reference)).toEqual([
      {
        adminId: null,
        action: 'payment.hold',
        before: { status: 'FAILED' },
        after: {
          status: 'HELD',
          amount: '100000',
          reason: 'it would have taken you past your daily deposit limit of ₦1,000',
        },
      },
      {
        adminId: null,
        action: 'payment.hold.return',
        before: { status: 'HELD' },
        after: {
          status: 'REFUNDED',
          amount: '100000',
          note: 'Pluckers top-up returned: it arrived past your deposit limit',
        },
      },
    ]);
    await expectLedgerHolds(app);
  });

  it('Flutterwave: a declined checkout paid late with a second card is refunded by transaction id', async () => {
    const { app, user, flow, setLimit, statusOf } = await setup();
    await setLimit('day', 1000);
    const first = await flow.start(1000, 'flutterwave');
    const declined = flutterwave.attempt(first.reference, { status: 'failed' });
    await flow.callback(`flutterwave?${flutterwave.redirectQuery(first.reference, declined)}`);
    expect((await flow.row(first.reference))?.status).toBe('FAILED');
    const second = await flow.start(1000, 'flutterwave');
    await flow.deliver(
      'flutterwave',
      flutterwave.chargeWebhook(flutterwave.attempt(second.reference)),
    );
    expect(await balanceOf(app.db, user.id)).toBe(100_000n);

    const late = flutterwave.attempt(first.reference);
    const response = await flow.deliver('flutterwave', flutterwave.chargeWebhook(late));
    expect(response.statusCode).toBe(200);
    expect(await balanceOf(app.db, user.id)).toBe(100_000n);
    expect(
      flutterwave.refunds.filter((r) => [first.reference, second.reference].includes(r.txRef)),
    ).toEqual([
      expect.objectContaining({ transactionId: late.id, txRef: first.reference, amount: 1000 }),
    ]);
    expect(await statusOf(first.reference)).toBe('refunded');
    await expectLedgerHolds(app);
  });

  it('counts by the Lagos day the money lands in: a 23:25 and a 00:00:16 checkout both paid credit one', async () => {
    // 23:25 in Lagos is 22:25 UTC.
    const { app, clock, user, flow, setLimit, depositLimit, statusOf } = await setupWithClock(
      new Date('2026-12-02T22:25:00Z'),
    );
    await setLimit('day', 1000);
    const evening = await flow.start(1000, 'paystack');
    clock.advance(35 * MINUTE + 16_000);
    // Past 30 minutes the unpaid evening checkout stops counting: a new one opens.
    const midnight = await flow.start(1000, 'paystack');
    paystack.markPaid(evening.reference);
    paystack.markPaid(midnight.reference);
    clock.advance(MINUTE);
    expect((await flow.callback(`paystack?reference=${evening.reference}`)).status).toBe('success');
    expect((await flow.callback(`paystack?reference=${midnight.reference}`)).status).toBe('failed');

    expect(await balanceOf(app.db, user.id)).toBe(100_000n);
    expect(await statusOf(midnight.reference)).toBe('refunded');
    // The page says what is enforced: what landed today.
    expect(await depositLimit('day')).toMatchObject({ used: 1000 });
    await expectLedgerHolds(app);
  });

  it('an open checkout counts for 30 minutes whatever day it was opened on', async () => {
    // 23:50 in Lagos.
    const { clock, flow, setLimit, depositLimit, app, headers } = await setupWithClock(
      new Date('2026-12-02T22:50:00Z'),
    );
    await setLimit('day', 1000);
    await flow.start(1000, 'paystack');
    clock.advance(15 * MINUTE);
    // 00:05: the new day has started, but the evening checkout can still be paid into it.
    expect(await depositLimit('day')).toMatchObject({ used: 1000 });
    const refused = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/paystack',
      headers,
      payload: { amount: 500 },
    });
    expect(refused.statusCode).toBe(400);
    clock.advance(16 * MINUTE);
    expect(await depositLimit('day')).toMatchObject({ used: 0 });
    expect((await flow.start(500, 'paystack')).reference).toMatch(/^PLK-/);
  });

  it('TransactPay (no refund API): held, shown to the player and the console, released or returned by an operator', async () => {
    const { app, clock, user, flow, setLimit, statusOf, depositLimit } = await setupWithClock();
    const first = await flow.start(1000, 'transactpay');
    const second = await flow.start(1000, 'transactpay');
    const third = await flow.start(1000, 'transactpay');
    // Checkouts opened before the limit was set: a first limit applies at once, to what lands.
    await setLimit('day', 1000);
    transactpay.markPaid(first.reference);
    transactpay.markPaid(second.reference);
    expect((await flow.callback(`transactpay?reference=${first.reference}`)).status).toBe(
      'success',
    );
    const held = await flow.callback(`transactpay?reference=${second.reference}`);
    expect(held).toEqual({
      status: 'failed',
      message:
        '₦1,000 is on hold: it would have taken you past your daily deposit limit of ₦1,000, so it was not added to your wallet. It is safe: our team will return it to you or, once your limit allows, add it to your wallet.',
    });
    expect(await balanceOf(app.db, user.id)).toBe(100_000n);
    expect(await statusOf(second.reference)).toBe('held');
    expect(await notificationsTitled(app.db, user.id, 'Top-up on hold')).toHaveLength(1);
    await expectLedgerHolds(app);

    const admin = await createAdmin(app.db);
    const operator = await bearerFor(app, admin);
    const queue = await app.inject({ url: '/api/v1/admin/held-payments', headers: operator });
    expect(queue.statusCode, queue.body).toBe(200);
    const listed = queue.json().data as {
      held: number;
      payments: Array<{ reference: string; status: string }>;
    };
    expect(listed.held).toBeGreaterThanOrEqual(1);
    // On hold first, before those already released or returned.
    expect(listed.payments[0]?.status).toBe('held');
    expect(listed.payments.find((row) => row.reference === second.reference)).toEqual({
      reference: second.reference,
      userId: user.id,
      username: `plucker_${user.handle}`,
      method: 'transactpay',
      channel: 'checkout',
      senderName: null,
      senderBank: null,
      amount: 1000,
      status: 'held',
      reason: 'it would have taken you past your daily deposit limit of ₦1,000',
      heldAt: expect.any(String),
      resolvedAt: null,
      resolutionNote: null,
      canRefund: false,
    });

    const release = (note: string) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/admin/held-payments/${second.reference}/release`,
        headers: operator,
        payload: { note },
      });
    // Released into the wallet only as the player's limits allow today.
    const early = await release('Player asked for it in the wallet');
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe(
      'You have reached your daily deposit limit of ₦1,000. It resets on 03 Dec 2026, 12:00 am.',
    );
    clock.advance(24 * 3_600_000);
    const released = await release('Player asked for it in the wallet');
    expect(released.statusCode, released.body).toBe(200);
    expect(await balanceOf(app.db, user.id)).toBe(200_000n);
    expect(await statusOf(second.reference)).toBe('successful');
    expect(await depositLimit('day')).toMatchObject({ used: 1000 });
    expect((await release('Once more, by mistake')).statusCode).toBe(409);
    expect(await auditOf(app, second.reference)).toEqual([
      expect.objectContaining({ adminId: null, action: 'payment.hold' }),
      {
        adminId: admin.id,
        action: 'payment.hold.release',
        before: { status: 'HELD' },
        after: { status: 'SUCCESS', amount: '100000', note: 'Player asked for it in the wallet' },
      },
    ]);
    await expectLedgerHolds(app);

    // The released money used today's limit: the third is held too, and returned by hand.
    transactpay.markPaid(third.reference);
    await flow.callback(`transactpay?reference=${third.reference}`);
    expect(await statusOf(third.reference)).toBe('held');
    const returned = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/held-payments/${third.reference}/return`,
      headers: operator,
      payload: { note: 'Sent back by bank transfer from the TransactPay dashboard' },
    });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(await statusOf(third.reference)).toBe('refunded');
    expect(await balanceOf(app.db, user.id)).toBe(200_000n);
    expect(await notificationsTitled(app.db, user.id, 'Top-up returned')).toHaveLength(1);
    expect((await auditOf(app, third.reference)).at(-1)).toEqual({
      adminId: admin.id,
      action: 'payment.hold.return',
      before: { status: 'HELD' },
      after: {
        status: 'REFUNDED',
        amount: '100000',
        note: 'Sent back by bank transfer from the TransactPay dashboard',
      },
    });
    await expectLedgerHolds(app);
  });

  it('holds when Paystack refuses the refund; an operator returns it through Paystack later', async () => {
    const { app, user, flow, setLimit, statusOf } = await setup();
    const first = await flow.start(1000, 'paystack');
    const second = await flow.start(1000, 'paystack');
    await setLimit('day', 1000);
    paystack.markPaid(first.reference);
    paystack.markPaid(second.reference);
    await flow.callback(`paystack?reference=${first.reference}`);
    paystack.refuseRefunds('Refunds are not enabled for this business');
    try {
      await flow.callback(`paystack?reference=${second.reference}`);
    } finally {
      paystack.refuseRefunds(null);
    }
    expect(await statusOf(second.reference)).toBe('held');
    expect(await balanceOf(app.db, user.id)).toBe(100_000n);
    await expectLedgerHolds(app);

    const operator = await bearerFor(app, await createAdmin(app.db));
    const queue = await app.inject({ url: '/api/v1/admin/held-payments', headers: operator });
    expect(
      (queue.json().data.payments as Array<{ reference: string }>).find(
        (row) => row.reference === second.reference,
      ),
    ).toMatchObject({ status: 'held', canRefund: true });
    const returned = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/held-payments/${second.reference}/return`,
      headers: operator,
      payload: { note: 'Refunds enabled on the Paystack dashboard' },
    });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(paystack.refunds.filter((r) => r.reference === second.reference)).toHaveLength(1);
    expect(await statusOf(second.reference)).toBe('refunded');
    const rows = await app.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(rows.map((row) => row.status).sort()).toEqual(['REFUNDED', 'SUCCESS']);
    await expectLedgerHolds(app);
  });
});
