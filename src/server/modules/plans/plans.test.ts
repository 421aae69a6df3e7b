import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { games, plans, users } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createUser,
  fundWallet,
  testClock,
  uniqueSuffix,
} from '../../test/factories.ts';
import { createDrawSeed } from '../draws/commitment.ts';
import { checkLedger } from '../wallet/ledger-check.ts';
import { renewDuePlans } from './service.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

const DAY = 86_400_000;
const START = '2026-03-02T09:00:00Z';

type App = Awaited<ReturnType<typeof buildTestApp>>;

async function vipPlan(app: App) {
  const [plan] = await app.db
    .insert(plans)
    .values({
      planName: `VIP ${uniqueSuffix()}`,
      amountPerDay: 20_000n,
      features: {
        getVerifiedBadge: true,
        gamesPerDay: null,
        tournamentAccess: true,
        earlyTournamentInvite: true,
        priorityLeaderboardPlacement: true,
        showAds: false,
      },
    })
    .returning();
  if (!plan) throw new Error('no plan');
  return plan;
}

const balanceOf = async (app: App, userId: string) =>
  (
    await app.db
      .select({ balance: users.accountBalance, planId: users.planId })
      .from(users)
      .where(eq(users.id, userId))
  )[0];

describe('plans', () => {
  it('lists plans with the weekly price computed as amountPerDay × 7', async () => {
    const app = fileApp();
    const plan = await vipPlan(app);
    const listed = (await app.inject({ url: '/api/v1/plan' }))
      .json()
      .data.find((p: { id: string }) => p.id === plan.id);
    expect(listed).toMatchObject({ amountPerDay: 200, weeklyPrice: 1400 });
  });

  it('subscribes from the wallet, removes the prefix at once, and refuses a second subscription', async () => {
    const clock = testClock(START);
    const app = await buildTestApp(database(), {}, { clock });
    const plan = await vipPlan(app);
    const user = await createUser(app.db);
    await fundWallet(app.db, user.id, 200_000n);
    const headers = await bearerFor(app, user);

    const response = await app.inject({
      method: 'POST',
      url: `/api/v1/plan/subscribe/${plan.id}`,
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({
      username: user.handle,
      isVerified: true,
      planID: plan.id,
      accountBalance: 600,
    });

    const again = await app.inject({
      method: 'POST',
      url: `/api/v1/plan/subscribe/${plan.id}`,
      headers,
    });
    expect(again.json()).toEqual({
      message: 'You already have an active plan',
      statusCode: 409,
      code: 'ALREADY_SUBSCRIBED',
    });
    expect((await balanceOf(app, user.id))?.balance).toBe(60_000n);
  });

  it('explains a short balance, an unknown plan and a missing id, and changes nothing', async () => {
    const app = fileApp();
    const plan = await vipPlan(app);
    const user = await createUser(app.db);
    await fundWallet(app.db, user.id, 100_000n);
    const headers = await bearerFor(app, user);

    const short = await app.inject({
      method: 'POST',
      url: `/api/v1/plan/subscribe/${plan.id}`,
      headers,
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toMatch(/You need ₦1,400 in your wallet/);
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1/plan/subscribe/00000000-0000-4000-8000-000000000000',
      headers,
    });
    expect(unknown.json()).toEqual({
      message: 'Plan not found',
      statusCode: 404,
      code: 'PLAN_NOT_FOUND',
    });
    const missing = await app.inject({ method: 'POST', url: '/api/v1/plan/subscribe', headers });
    expect(missing.json()).toEqual({
      message: 'Plan ID is required',
      statusCode: 400,
      code: 'BAD_REQUEST',
    });
    expect(await balanceOf(app, user.id)).toEqual({ balance: 100_000n, planId: null });
  });

  it('renews weekly from the wallet and lapses when the balance is short, with a moved clock', async () => {
    const clock = testClock(START);
    const app = await buildTestApp(database(), {}, { clock });
    const plan = await vipPlan(app);
    const user = await createUser(app.db);
    await fundWallet(app.db, user.id, 300_000n);
    await app.inject({
      method: 'POST',
      url: `/api/v1/plan/subscribe/${plan.id}`,
      headers: await bearerFor(app, user),
    });

    clock.advance(7 * DAY);
    await renewDuePlans(app.db, clock.now());
    expect(await balanceOf(app, user.id)).toEqual({ balance: 20_000n, planId: plan.id });

    clock.advance(7 * DAY);
    await renewDuePlans(app.db, clock.now());
    expect(await balanceOf(app, user.id)).toEqual({ balance: 20_000n, planId: null });
    const me = (
      await app.inject({ url: '/api/v1/user', headers: await bearerFor(app, user) })
    ).json().data;
    expect(me.username).toBe(`plucker_${user.handle}`);
    expect(
      (await checkLedger(app.db, app.paymentProviders)).invariants.filter((i) => !i.ok),
    ).toEqual([]);
  });

  it('charges once when the renewal job runs twice at the same time', async () => {
    const clock = testClock(START);
    const app = await buildTestApp(database(), {}, { clock });
    const plan = await vipPlan(app);
    const user = await createUser(app.db);
    await fundWallet(app.db, user.id, 500_000n);
    await app.inject({
      method: 'POST',
      url: `/api/v1/plan/subscribe/${plan.id}`,
      headers: await bearerFor(app, user),
    });

    clock.advance(7 * DAY);
    await Promise.all([
      renewDuePlans(app.db, clock.now()),
      renewDuePlans(app.db, clock.now()),
      app.jobs.runDue(),
    ]);
    expect((await balanceOf(app, user.id))?.balance).toBe(500_000n - 2n * 140_000n);
    expect(
      (await checkLedger(app.db, app.paymentProviders)).invariants.filter((i) => !i.ok),
    ).toEqual([]);
  });

  it('enforces the daily limit without a plan but not with one, and tournaments need access', async () => {
    const clock = testClock(START);
    const app = await buildTestApp(database(), {}, { clock });
    const plan = await vipPlan(app);
    const freeGames = await app.db
      .insert(games)
      .values(
        Array.from({ length: 7 }, (_, i) => ({
          title: `Free ${i}`,
          reward: 0n,
          maximumPlayers: 50,
          ...createDrawSeed(),
        })),
      )
      .returning();
    const [tournament] = await app.db
      .insert(games)
      .values({
        title: 'Cup',
        reward: 0n,
        maximumPlayers: 50,
        isTournament: true,
        ...createDrawSeed(),
      })
      .returning();

    const player = await createUser(app.db);
    const vip = await createUser(app.db);
    await fundWallet(app.db, vip.id, 200_000n);
    const vipHeaders = await bearerFor(app, vip);
    await app.inject({
      method: 'POST',
      url: `/api/v1/plan/subscribe/${plan.id}`,
      headers: vipHeaders,
    });

    const play = async (headers: Record<string, string>, gameID: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/game/play',
        headers,
        payload: { gameID, submittedAnswer: 'my answer' },
      });
    const playerHeaders = await bearerFor(app, player);
    const statuses = [];
    for (const game of freeGames.slice(0, 6))
      statuses.push((await play(playerHeaders, game.id)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 403]);
    const refused = await play(playerHeaders, freeGames[6]?.id ?? '');
    expect(refused.json().message).toBe(
      'You have reached your daily limit of 5 games. Go VIP for unlimited games.',
    );

    for (const game of freeGames) expect((await play(vipHeaders, game.id)).statusCode).toBe(201);

    clock.advance(DAY);
    const tournamentRefusal = await play(playerHeaders, tournament?.id ?? '');
    expect(tournamentRefusal.json()).toEqual({
      message: 'Tournaments are for VIP members. Upgrade your plan to play.',
      statusCode: 403,
      code: 'VIP_ONLY',
    });
    expect((await play(vipHeaders, tournament?.id ?? '')).statusCode).toBe(201);
  });
});
