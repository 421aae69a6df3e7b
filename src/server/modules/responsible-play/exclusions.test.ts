import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAudit, notifications, playExclusions, users } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createAdmin,
  createGame,
  createPlan,
  createPlayer,
  testClock,
} from '../../test/factories.ts';
import { balanceOf, notificationTitles } from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { announceTournament } from '../games/announcements.ts';
import { renewDuePlans } from '../plans/service.ts';

/** Time-outs and self-exclusions: what they stop, what they leave, and who may end them. */
const database = testDatabasePerFile();
let paystack: FakePaystack;
beforeAll(async () => {
  paystack = await startFakePaystack();
});
afterAll(() => paystack.close());

const START = new Date('2026-12-02T09:00:00Z');
const DAY = 86_400_000;

async function setup() {
  const clock = testClock(START);
  const app = await buildTestApp(database(), paystack.env, { clock });
  const player = await createPlayer(app.db, { kobo: 1_000_000n });
  const headers = await bearerFor(app, player);
  const startBreak = (duration: string, confirm: unknown = true) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/responsible-play/exclusion',
      headers,
      payload: { duration, confirm },
    });
  return { app, clock, player, headers, startBreak };
}

describe('time-outs and self-exclusion', () => {
  it('asks for confirmation, then refuses every play, top-up and subscription saying until when', async () => {
    const { app, player, headers, startBreak } = await setup();
    const unconfirmed = await startBreak('7d', false);
    expect(unconfirmed.json()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Confirm that you understand the break cannot be undone',
    });
    expect((await startBreak('2w')).json().message).toBe('Choose how long the break lasts');
    expect(
      await app.db.select().from(playExclusions).where(eq(playExclusions.userId, player.id)),
    ).toHaveLength(0);

    const started = await startBreak('7d');
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json()).toMatchObject({
      message: 'Your break has started. It ends on 09 Dec 2026, 10:00 am.',
      data: { kind: 'timeout', endsAt: '2026-12-09T09:00:00.000Z', liftedAt: null },
    });
    const refusal = {
      statusCode: 403,
      code: 'PLAY_PAUSED',
      message:
        'You are taking a break until 09 Dec 2026, 10:00 am. Until then you can see your balance and history and withdraw, but not play, top up or subscribe.',
    };

    const game = await createGame(app.db, { entryFee: 10_000n });
    const free = await createGame(app.db);
    for (const gameID of [game.id, free.id]) {
      const play = await app.inject({
        method: 'POST',
        url: '/api/v1/game/play',
        headers,
        payload: { gameID, submittedAnswer: 'One more go' },
      });
      expect(play.json()).toEqual(refusal);
    }
    for (const method of ['paystack', 'transactpay', 'flutterwave']) {
      const topUp = await app.inject({
        method: 'POST',
        url: `/api/v1/payment/${method}`,
        headers,
        payload: { amount: 1000 },
      });
      // Methods not configured here are refused as unavailable before anything else.
      if (method === 'paystack') expect(topUp.json()).toEqual(refusal);
      else expect(topUp.statusCode).toBe(400);
    }
    expect(
      paystack.requests.filter(
        (request) => (request.body as { email?: string }).email === player.email,
      ),
    ).toHaveLength(0);
    const plan = await createPlan(app.db, { gamesPerDay: null });
    const subscribe = await app.inject({
      method: 'POST',
      url: `/api/v1/plan/subscribe/${plan.id}`,
      headers,
    });
    expect(subscribe.json()).toEqual(refusal);
    expect(await balanceOf(app.db, player.id)).toBe(1_000_000n);

    // What stays open: the balance, the history and a withdrawal.
    expect((await app.inject({ url: '/api/v1/user', headers })).json().data.accountBalance).toBe(
      10_000,
    );
    expect((await app.inject({ url: '/api/v1/payment', headers })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/v1/game/played', headers })).statusCode).toBe(200);
    const withdrawal = await app.inject({
      method: 'POST',
      url: '/api/v1/withdrawal',
      headers,
      payload: { amount: 5000 },
    });
    expect(withdrawal.statusCode, withdrawal.body).toBe(201);
    expect(await balanceOf(app.db, player.id)).toBe(1_000_000n - 505_000n);
  });

  it('ends by itself at its end time, and a running break can only be made longer', async () => {
    const { app, clock, player, headers, startBreak } = await setup();
    expect((await startBreak('30d')).statusCode).toBe(201);
    const shorter = await startBreak('24h');
    expect(shorter.json()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message:
        'You are already on a break until 01 Jan 2027, 10:00 am. A new one must end later than that.',
    });
    const longer = await startBreak('6m');
    expect(longer.json().data).toMatchObject({
      kind: 'self_exclusion',
      endsAt: '2027-06-02T09:00:00.000Z',
    });
    const overview = await app.inject({ url: '/api/v1/responsible-play', headers });
    expect(overview.json().data.exclusion).toMatchObject({ kind: 'self_exclusion' });

    clock.set(new Date('2027-06-02T09:00:00Z'));
    const game = await createGame(app.db);
    // Signed in again: a token lasts 7 days.
    const play = await app.inject({
      method: 'POST',
      url: '/api/v1/game/play',
      headers: await bearerFor(app, player),
      payload: { gameID: game.id, submittedAnswer: 'Back again' },
    });
    expect(play.statusCode, play.body).toBe(201);
  });

  it('lets a plan lapse at renewal without charging while a break runs', async () => {
    const { app, clock, player, headers, startBreak } = await setup();
    const plan = await createPlan(app.db, { gamesPerDay: null });
    const subscribed = await app.inject({
      method: 'POST',
      url: `/api/v1/plan/subscribe/${plan.id}`,
      headers,
    });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    const afterFirstWeek = await balanceOf(app.db, player.id);
    expect((await startBreak('30d')).statusCode).toBe(201);

    clock.advance(7 * DAY);
    await renewDuePlans(app.db, clock.now());
    const [row] = await app.db
      .select({ planId: users.planId, planExpiresAt: users.planExpiresAt })
      .from(users)
      .where(eq(users.id, player.id));
    expect(row).toEqual({ planId: null, planExpiresAt: null });
    expect(await balanceOf(app.db, player.id)).toBe(afterFirstWeek);
    const [notice] = await app.db
      .select({ message: notifications.message })
      .from(notifications)
      .where(
        and(eq(notifications.userId, player.id), eq(notifications.title, 'Your plan has ended')),
      );
    expect(notice?.message).toMatch(/taking a break from Pluckers, and nothing was charged/);
  });

  it('cannot be ended by the player; an operator ends it only with a reason, audited', async () => {
    const { app, player, headers, startBreak } = await setup();
    // No player operation ends or shortens a break: the API has none (a shorter new break is
    // refused, above). Only the operator route below lifts one.
    const operations = Object.entries(
      (app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths,
    ).flatMap(([path, methods]) =>
      path.startsWith('/api/v1/responsible-play')
        ? Object.keys(methods)
            .filter((method) => method !== 'get')
            .map((method) => `${method.toUpperCase()} ${path}`)
        : [],
    );
    expect(operations.sort()).toEqual([
      'POST /api/v1/responsible-play/exclusion',
      'PUT /api/v1/responsible-play/limits',
      'PUT /api/v1/responsible-play/preferences',
    ]);
    expect((await startBreak('1y')).statusCode).toBe(201);
    // The operator route is for operators only.
    const byPlayer = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/users/${player.id}/exclusion/lift`,
      headers,
      payload: { reason: 'I changed my mind about it' },
    });
    expect(byPlayer.statusCode).toBe(403);

    const admin = await createAdmin(app.db);
    const operator = await bearerFor(app, admin);
    const lift = (payload: unknown) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/admin/users/${player.id}/exclusion/lift`,
        headers: operator,
        payload: payload as object,
      });
    for (const payload of [{}, { reason: '   too short ' }]) {
      const response = await lift(payload);
      expect(response.json()).toEqual({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'Give the reason for lifting it (at least 10 characters)',
      });
    }
    const [stillThere] = await app.db
      .select()
      .from(playExclusions)
      .where(eq(playExclusions.userId, player.id));
    expect(stillThere?.liftedAt).toBeNull();

    const reason = 'Entered by mistake: confirmed with the player on a recorded call';
    const lifted = await lift({ reason });
    expect(lifted.json()).toEqual({ message: 'Break lifted' });
    expect((await lift({ reason })).json()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'This player has no time-out or self-exclusion running',
    });
    const view = await app.inject({
      url: `/api/v1/admin/users/${player.id}/responsible-play`,
      headers: operator,
    });
    expect(view.json().data).toMatchObject({
      exclusion: null,
      exclusions: [{ kind: 'self_exclusion', liftedReason: reason, liftedBy: admin.email }],
    });
    const audit = await app.db
      .select()
      .from(adminAudit)
      .where(and(eq(adminAudit.targetId, player.id), eq(adminAudit.action, 'user.exclusion.lift')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ adminId: admin.id, after: { reason } });
    expect(await notificationTitles(app.db, player.id)).toContain(
      'Your break was ended by our team',
    );
    const game = await createGame(app.db);
    const play = await app.inject({
      method: 'POST',
      url: '/api/v1/game/play',
      headers,
      payload: { gameID: game.id, submittedAnswer: 'Welcome back' },
    });
    expect(play.statusCode).toBe(201);
  });

  it('marketing (tournament announcements) skips players on a break and those who turned it off', async () => {
    const { app, player: onBreak, startBreak } = await setup();
    expect((await startBreak('24h')).statusCode).toBe(201);
    const optedOut = await createPlayer(app.db, { bank: null });
    const optedOutHeaders = await bearerFor(app, optedOut);
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/preferences',
      headers: optedOutHeaders,
      payload: { marketingEmails: false, realityCheckMinutes: 30 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ marketingEmails: false, realityCheckMinutes: 30 });
    const bad = await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/preferences',
      headers: optedOutHeaders,
      payload: { realityCheckMinutes: 20 },
    });
    expect(bad.json()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Choose a reminder every 15, 30 or 60 minutes, or none',
    });
    const reader = await createPlayer(app.db, { bank: null });

    const game = await createGame(app.db, { isTournament: true });
    await announceTournament(app.db, game, 'everyone-else', START);
    const told = async (userId: string) =>
      (await notificationTitles(app.db, userId)).includes('A tournament is open');
    expect(await told(reader.id)).toBe(true);
    expect(await told(optedOut.id)).toBe(false);
    expect(await told(onBreak.id)).toBe(false);
  });
});
