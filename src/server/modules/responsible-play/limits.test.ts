import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, plans, users } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createGame,
  createPlan,
  createPlayer,
  createUser,
  testClock,
} from '../../test/factories.ts';
import { balanceOf, notificationsTitled } from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { renewDuePlans } from '../plans/service.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

/** Deposit and spend limits through the routes a player uses, on a moved clock. */
const database = testDatabasePerFile();
let paystack: FakePaystack;
beforeAll(async () => {
  paystack = await startFakePaystack();
});
afterAll(() => paystack.close());

// A Wednesday, 10:00 in Lagos: the week started on Monday the 2nd, the month on the 1st.
const WEDNESDAY = new Date('2026-12-02T09:00:00Z');
const HOUR = 3_600_000;

async function setup(start = WEDNESDAY) {
  const clock = testClock(start);
  const app = await buildTestApp(database(), paystack.env, { clock });
  const user = await createUser(app.db);
  const headers = await bearerFor(app, user);
  const setLimit = (kind: string, period: string, amount: number | null) =>
    app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers,
      payload: { kind, period, amount },
    });
  const overview = async () => {
    const response = await app.inject({ url: '/api/v1/responsible-play', headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as {
      limits: Array<{
        kind: string;
        period: string;
        amount: number | null;
        used: number;
        remaining: number | null;
        periodEnd: string;
        pending: { amount: number | null; from: string } | null;
      }>;
    };
  };
  const limit = async (kind: string, period: string) =>
    (await overview()).limits.find((row) => row.kind === kind && row.period === period);
  const topUp = (amount: number) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/payment/paystack',
      headers,
      payload: { amount },
    });
  const providerCalls = () =>
    paystack.requests.filter(
      (request) =>
        request.path === '/transaction/initialize' &&
        (request.body as { email?: string }).email === user.email,
    ).length;
  return { app, clock, user, headers, setLimit, limit, overview, topUp, providerCalls };
}

describe('deposit and spend limits', () => {
  it('lowering applies at once; raising and removing wait 24 hours and say from when', async () => {
    const { clock, setLimit, limit } = await setup();
    const first = await setLimit('deposit', 'day', 5000);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe('Your new limit applies now.');
    expect(await limit('deposit', 'day')).toMatchObject({
      amount: 5000,
      used: 0,
      remaining: 5000,
      pending: null,
      // Lagos midnight: 23:00 UTC the day before.
      periodEnd: '2026-12-02T23:00:00.000Z',
    });

    const lower = await setLimit('deposit', 'day', 2000);
    expect(lower.json().message).toBe('Your new limit applies now.');
    expect(await limit('deposit', 'day')).toMatchObject({ amount: 2000, pending: null });

    const raise = await setLimit('deposit', 'day', 8000);
    expect(raise.statusCode).toBe(200);
    expect(raise.json().message).toBe(
      'Your new limit applies from 03 Dec 2026, 10:00 am, after a 24-hour cooling-off. Until then your current limit stays.',
    );
    expect(await limit('deposit', 'day')).toMatchObject({
      amount: 2000,
      pending: { amount: 8000, from: '2026-12-03T09:00:00.000Z' },
    });

    clock.advance(24 * HOUR - 1);
    expect((await limit('deposit', 'day'))?.amount).toBe(2000);
    clock.advance(1);
    expect(await limit('deposit', 'day')).toMatchObject({ amount: 8000, pending: null });

    // Removing waits too; lowering meanwhile cancels the waiting removal.
    const remove = await setLimit('deposit', 'day', null);
    expect(remove.json().message).toMatch(/^Your new limit applies from 04 Dec 2026, 10:00 am/);
    expect(await limit('deposit', 'day')).toMatchObject({
      amount: 8000,
      pending: { amount: null },
    });
    await setLimit('deposit', 'day', 7000);
    expect(await limit('deposit', 'day')).toMatchObject({ amount: 7000, pending: null });
    await setLimit('deposit', 'day', null);
    clock.advance(24 * HOUR);
    expect(await limit('deposit', 'day')).toMatchObject({
      amount: null,
      remaining: null,
      pending: null,
    });
  });

  it('refuses bad input clearly and changes nothing', async () => {
    const { setLimit, overview } = await setup();
    for (const [payload, message] of [
      [{ kind: 'deposit', period: 'day', amount: 0 }, 'Enter a limit greater than zero'],
      [{ kind: 'deposit', period: 'day', amount: 12.5 }, 'Enter a limit greater than zero'],
      [{ kind: 'deposit', period: 'year', amount: 10 }, 'Choose a day, week or month'],
      [{ kind: 'bets', period: 'day', amount: 10 }, 'Choose a deposit or spend limit'],
      [{ kind: 'spend', period: 'week', amount: 20_000_000 }, 'A limit can be at most ₦10,000,000'],
    ] as const) {
      const response = await setLimit(payload.kind, payload.period, payload.amount);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    }
    expect((await overview()).limits.every((row) => row.amount === null)).toBe(true);
  });

  it('refuses a top-up past the remaining limit before the provider is asked, counting pending checkouts', async () => {
    const { app, user, setLimit, topUp, providerCalls, limit } = await setup();
    await setLimit('deposit', 'day', 5000);
    await setLimit('deposit', 'week', 20_000);

    const first = await topUp(3000);
    expect(first.statusCode, first.body).toBe(200);
    expect(providerCalls()).toBe(1);
    // Still pending (not paid): it counts, so a second checkout cannot overshoot.
    const over = await topUp(2500);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(
      'This top-up would go over your daily deposit limit of ₦5,000. You can top up ₦2,000 more today.',
    );
    expect(providerCalls()).toBe(1);
    expect(await app.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(
      1,
    );

    expect((await topUp(2000)).statusCode).toBe(200);
    const full = await topUp(100);
    expect(full.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message:
        'You have reached your daily deposit limit of ₦5,000. It resets on 03 Dec 2026, 12:00 am.',
    });
    expect(providerCalls()).toBe(2);
    expect(await limit('deposit', 'day')).toMatchObject({ used: 5000, remaining: 0 });
  });

  it('a failed checkout frees its room; a new day starts a new count but the week still holds', async () => {
    const { app, clock, user, setLimit, topUp } = await setup();
    await setLimit('deposit', 'day', 5000);
    await setLimit('deposit', 'week', 7000);
    const opened = await topUp(5000);
    expect(opened.statusCode).toBe(200);
    await app.db
      .update(payments)
      .set({ status: 'FAILED', failureReason: 'declined' })
      .where(eq(payments.userId, user.id));
    const second = await topUp(5000);
    expect(second.statusCode).toBe(200);
    // Paid: the money that lands is what counts for the rest of the week.
    const { reference } = second.json().data as { reference: string };
    paystack.markPaid(reference);
    await app.inject({ url: `/api/v1/payment/callback/paystack?reference=${reference}` });

    clock.advance(24 * HOUR);
    const weekly = await topUp(3000);
    expect(weekly.json().message).toBe(
      'This top-up would go over your weekly deposit limit of ₦7,000. You can top up ₦2,000 more this week.',
    );
    expect((await topUp(2000)).statusCode).toBe(200);
  });

  it('refuses an entry fee past a spend limit inside the play, charging nothing', async () => {
    const clock = testClock(WEDNESDAY);
    const app = await buildTestApp(database(), {}, { clock });
    const player = await createPlayer(app.db, { kobo: 1_000_000n });
    const headers = await bearerFor(app, player);
    const put = await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers,
      payload: { kind: 'spend', period: 'day', amount: 500 },
    });
    expect(put.statusCode).toBe(200);
    const play = async (fee: bigint) => {
      const game = await createGame(app.db, { entryFee: fee });
      return app.inject({
        method: 'POST',
        url: '/api/v1/game/play',
        headers,
        payload: { gameID: game.id, submittedAnswer: 'Jollof rice wins' },
      });
    };
    expect((await play(30_000n)).statusCode).toBe(201);
    const refused = await play(30_000n);
    expect(refused.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message:
        'This entry fee would go over your daily spend limit of ₦500. You can spend ₦200 more today.',
    });
    // Free games are never limited.
    expect((await play(0n)).statusCode).toBe(201);
    expect((await play(20_000n)).statusCode).toBe(201);
    expect(await balanceOf(app.db, player.id)).toBe(1_000_000n - 50_000n);
    const after = await app.inject({ url: '/api/v1/responsible-play', headers });
    expect(
      after
        .json()
        .data.limits.find(
          (row: { kind: string; period: string }) => row.kind === 'spend' && row.period === 'day',
        ),
    ).toMatchObject({ used: 500, remaining: 0 });
  });

  it('a VIP plan does not lift a spend limit', async () => {
    const app = await buildTestApp(database(), {}, { clock: testClock(WEDNESDAY) });
    const plan = await createPlan(app.db, { gamesPerDay: null });
    const player = await createPlayer(app.db, { kobo: 1_000_000n, planId: plan.id });
    const headers = await bearerFor(app, player);
    await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers,
      payload: { kind: 'spend', period: 'month', amount: 1000 },
    });
    const game = await createGame(app.db, { entryFee: 150_000n });
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/game/play',
      headers,
      payload: { gameID: game.id, submittedAnswer: 'Too dear' },
    });
    expect(response.json().message).toBe(
      'This entry fee would go over your monthly spend limit of ₦1,000. You can spend ₦1,000 more this month.',
    );
  });

  it('counts a plan subscription as spend and refuses one past the limit, charging nothing', async () => {
    const clock = testClock(WEDNESDAY);
    const app = await buildTestApp(database(), {}, { clock });
    // ₦200 a day: ₦1,400 a week.
    const plan = await createPlan(app.db, { getVerifiedBadge: true });
    await app.db.update(plans).set({ amountPerDay: 20_000n }).where(eq(plans.id, plan.id));
    const player = await createPlayer(app.db, { kobo: 1_000_000n });
    const headers = await bearerFor(app, player);
    const limits = async (period: string, amount: number) =>
      app.inject({
        method: 'PUT',
        url: '/api/v1/responsible-play/limits',
        headers,
        payload: { kind: 'spend', period, amount },
      });
    await limits('day', 500);
    const game = await createGame(app.db, { entryFee: 50_000n });
    const play = await app.inject({
      method: 'POST',
      url: '/api/v1/game/play',
      headers,
      payload: { gameID: game.id, submittedAnswer: 'Puff-puff' },
    });
    expect(play.statusCode, play.body).toBe(201);
    const subscribe = () =>
      app.inject({ method: 'POST', url: `/api/v1/plan/subscribe/${plan.id}`, headers });
    const refused = await subscribe();
    expect(refused.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message:
        'You have reached your daily spend limit of ₦500. It resets on 03 Dec 2026, 12:00 am.',
    });
    expect(await balanceOf(app.db, player.id)).toBe(1_000_000n - 50_000n);

    clock.advance(24 * HOUR);
    await limits('week', 800);
    const weekly = await subscribe();
    expect(weekly.json().message).toBe(
      'This plan would go over your weekly spend limit of ₦800. You can spend ₦300 more this week.',
    );
    expect(await balanceOf(app.db, player.id)).toBe(1_000_000n - 50_000n);

    // With room, the subscription is spend the page counts.
    const roomy = testClock(WEDNESDAY);
    const other = await buildTestApp(database(), {}, { clock: roomy });
    const fresh = await createPlayer(other.db, { kobo: 1_000_000n });
    const freshHeaders = await bearerFor(other, fresh);
    await other.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers: freshHeaders,
      payload: { kind: 'spend', period: 'week', amount: 2000 },
    });
    const ok = await other.inject({
      method: 'POST',
      url: `/api/v1/plan/subscribe/${plan.id}`,
      headers: freshHeaders,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const page = await other.inject({ url: '/api/v1/responsible-play', headers: freshHeaders });
    expect(
      page
        .json()
        .data.limits.find(
          (row: { kind: string; period: string }) => row.kind === 'spend' && row.period === 'week',
        ),
    ).toMatchObject({ used: 1400, remaining: 600 });
  });

  it('lets a renewal past a spend limit lapse with nothing charged, as a break does', async () => {
    const clock = testClock(WEDNESDAY);
    const app = await buildTestApp(database(), {}, { clock });
    const plan = await createPlan(app.db, { getVerifiedBadge: true });
    await app.db.update(plans).set({ amountPerDay: 20_000n }).where(eq(plans.id, plan.id));
    const player = await createPlayer(app.db, { kobo: 1_000_000n });
    const headers = await bearerFor(app, player);
    const subscribed = await app.inject({
      method: 'POST',
      url: `/api/v1/plan/subscribe/${plan.id}`,
      headers,
    });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers,
      payload: { kind: 'spend', period: 'month', amount: 2000 },
    });

    // A week on, still in December: ₦1,400 already spent this month, the renewal would be ₦2,800.
    clock.advance(7 * 24 * HOUR);
    await renewDuePlans(app.db, clock.now());
    expect(await balanceOf(app.db, player.id)).toBe(1_000_000n - 140_000n);
    const [row] = await app.db.select().from(users).where(eq(users.id, player.id));
    expect(row).toMatchObject({ planId: null, planExpiresAt: null });
    const [notice] = await notificationsTitled(app.db, player.id, 'Your plan has ended');
    expect(notice?.message).toBe(
      `Your plan was not renewed because its ₦1,400 would have taken you past your monthly spend limit of ₦2,000, and nothing was charged. You can subscribe again when your limit allows.`,
    );
    expect(
      (await checkLedger(app.db, app.paymentProviders)).invariants.filter((i) => !i.ok),
    ).toEqual([]);
  });
});
