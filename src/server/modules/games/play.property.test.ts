import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lagosDayStart } from '../../../shared/date.ts';
import { nairaToKobo } from '../../../shared/money.ts';
import { LIMIT_PERIODS, type LimitPeriod, limitPeriod } from '../../../shared/responsible-play.ts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { maxKobo } from '../../lib/kobo.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { createGame, createPlan, createPlayer, fundWallet } from '../../test/factories.ts';
import { expectLedgerOk } from '../../test/ledger.ts';
import type { Actor } from '../auth/live-account.ts';
import { playArguments, playOnce } from './play.ts';
import type { PlayedRow } from './play-batch.ts';

/**
 * Property: whatever sequence of plays, top-ups, spend limits, breaks, plans, age confirmations,
 * suspensions, sign-ins and log-outs, operators' edits, openings and closings, and the clock moving on
 * happens, every play's answer from the database (`playOnce`: pluckers_play, batched, and alone
 * for a game's last place) is the one a plain model of the rules below gives, refusal, reason
 * and figures included, and wallets and games end where the model says.
 */
const database = testDatabasePerFile();

const PLAYERS = 4;
const GAMES = 5;
const HOUR = 3_600_000;

type Status = 'UPCOMING' | 'ONGOING' | 'CLOSED';
type Seen = 'none' | 'shown' | 'stale';

interface Plan {
  id: string;
  gamesPerDay: number | null;
  tournamentAccess: boolean;
}
interface LimitRow {
  amount: bigint;
  pending: { amount: bigint | null; from: Date } | null;
}
interface ModelPlayer {
  actor: Actor;
  balance: bigint;
  ageConfirmed: boolean;
  suspended: boolean;
  loggedOut: boolean;
  plan: Plan | null;
  dailyGames: number;
  dailyGamesDay: Date | null;
  entries: Array<{ game: string; fee: bigint; at: Date }>;
  breakEnds: Date | null;
  limits: Map<LimitPeriod, LimitRow>;
}
interface ModelGame {
  id: string;
  fee: bigint;
  reward: bigint;
  status: Status;
  players: number;
  max: number;
  tournament: boolean;
}

const naira = (amount: number) => nairaToKobo(amount);
const seenArbitrary = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom<Seen>('none', 'shown') },
  { weight: 1, arbitrary: fc.constant<Seen>('stale') },
);

const gameArbitrary = fc.record({
  fee: fc.constantFrom(0, 0, 50, 100, 300),
  reward: fc.constantFrom(0, 500, 1000),
  max: fc.integer({ min: 1, max: 4 }),
  status: fc.oneof(
    { weight: 5, arbitrary: fc.constant<Status>('ONGOING') },
    fc.constant<Status>('UPCOMING'),
  ),
  tournament: fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, fc.constant(true)),
});

const actionArbitrary = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.record({
      type: fc.constant('play' as const),
      player: fc.nat(PLAYERS - 1),
      game: fc.nat(GAMES - 1),
      fee: seenArbitrary,
      reward: seenArbitrary,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      type: fc.constant('topUp' as const),
      player: fc.nat(PLAYERS - 1),
      naira: fc.constantFrom(50, 100, 250, 1000),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      type: fc.constant('limit' as const),
      player: fc.nat(PLAYERS - 1),
      period: fc.constantFrom(...LIMIT_PERIODS),
      naira: fc.constantFrom(50, 120, 300, 600),
      pending: fc.option(
        fc.record({
          naira: fc.option(fc.constantFrom(100, 900), { nil: null }),
          due: fc.boolean(),
        }),
        { nil: null },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('break' as const),
      player: fc.nat(PLAYERS - 1),
      hours: fc.integer({ min: 1, max: 48 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('plan' as const),
      player: fc.nat(PLAYERS - 1),
      plan: fc.option(fc.nat(2), { nil: null }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('age' as const),
      player: fc.nat(PLAYERS - 1),
      confirmed: fc.oneof({ weight: 2, arbitrary: fc.constant(true) }, fc.constant(false)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('suspend' as const),
      player: fc.nat(PLAYERS - 1),
      suspended: fc.oneof({ weight: 2, arbitrary: fc.constant(false) }, fc.constant(true)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('session' as const),
      player: fc.nat(PLAYERS - 1),
      signIn: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('move' as const),
      game: fc.nat(GAMES - 1),
      to: fc.constantFrom<Status>('ONGOING', 'CLOSED'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant('edit' as const),
      game: fc.nat(GAMES - 1),
      fee: fc.constantFrom(0, 50, 150),
      reward: fc.constantFrom(0, 700),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      type: fc.constant('wait' as const),
      // Mostly within a day; now and then past a week's or a month's end.
      hours: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 1, max: 12 }) },
        fc.integer({ min: 13, max: 40 * 24 }),
      ),
    }),
  },
);
type Action = typeof actionArbitrary extends fc.Arbitrary<infer A> ? A : never;

interface Settings {
  dailyGameLimit: number | null;
  minimum: bigint;
}

/** What the model says of a play: the row `pluckers_play` should answer, in comparable form. */
type Expected =
  | { refusal: null; players: number; fee: bigint; toWin: bigint; last: boolean }
  | { refusal: string; detail: Record<string, unknown> | null };

function effectiveLimit(row: LimitRow, now: Date): bigint | null {
  if (row.pending && row.pending.from <= now) return row.pending.amount;
  return row.amount;
}

/** The rules of a play, as the product states them, on the model's state. */
function decide(
  player: ModelPlayer,
  game: ModelGame,
  seen: { fee: Seen; reward: Seen },
  settings: Settings,
  now: Date,
): Expected {
  const refuse = (refusal: string, detail: Record<string, unknown> | null = null): Expected => ({
    refusal,
    detail,
  });
  if (player.loggedOut) return refuse('unauthorized');
  if (player.suspended) return refuse('suspended');
  if (!player.ageConfirmed) return refuse('age_unconfirmed');
  if (player.breakEnds && player.breakEnds > now)
    return refuse('paused', { kind: 'timeout', endsAt: player.breakEnds.getTime() });
  if (seen.fee === 'stale') return refuse('fee_changed');
  if (seen.reward === 'stale') return refuse('reward_changed');
  if (game.status === 'UPCOMING') return refuse('not_started');
  if (game.status === 'CLOSED') return refuse(game.players >= game.max ? 'full' : 'closed');
  if (game.tournament && !player.plan?.tournamentAccess) return refuse('tournament_only');
  if (player.entries.some((entry) => entry.game === game.id)) return refuse('already_played');
  const limit = player.plan ? player.plan.gamesPerDay : settings.dailyGameLimit;
  const dayStart = lagosDayStart(now);
  const today = player.dailyGamesDay && player.dailyGamesDay >= dayStart ? player.dailyGames : 0;
  if (limit !== null && today >= limit) return refuse('daily_limit', { limit });
  if (game.fee > 0n) {
    const needed = maxKobo(game.fee, settings.minimum);
    if (player.balance < needed) return refuse('insufficient_funds', { needed: Number(needed) });
    let tightest: { period: LimitPeriod; limit: bigint; remaining: bigint; end: Date } | null =
      null;
    for (const period of LIMIT_PERIODS) {
      const row = player.limits.get(period);
      const amount = row ? effectiveLimit(row, now) : null;
      if (amount === null) continue;
      const { start, end } = limitPeriod(period, now);
      const used = player.entries
        .filter((entry) => entry.at >= start && entry.at < end)
        .reduce((sum, entry) => sum + entry.fee, 0n);
      const remaining = amount > used ? amount - used : 0n;
      if (game.fee > remaining && (!tightest || remaining < tightest.remaining))
        tightest = { period, limit: amount, remaining, end };
    }
    if (tightest)
      return refuse('spend_limit', {
        period: tightest.period,
        limit: Number(tightest.limit),
        remaining: Number(tightest.remaining),
        end: tightest.end.getTime(),
      });
  }
  return {
    refusal: null,
    players: game.players + 1,
    fee: game.fee,
    toWin: game.reward,
    last: game.players + 1 >= game.max,
  };
}

/** The run's games, in the order actions name them. */
let gamesInRun: ModelGame[] = [];

/** The database's row in the model's terms: timestamps as numbers, kobo as bigint. */
function comparable(row: PlayedRow): Expected {
  if (row.refusal === null)
    return {
      refusal: null,
      players: row.players,
      fee: BigInt(row.fee),
      toWin: BigInt(row.to_win),
      last: row.last,
    };
  const detail = row.detail;
  if (!detail || row.refusal === 'fee_changed' || row.refusal === 'reward_changed')
    return { refusal: row.refusal, detail: null };
  if (row.refusal === 'paused')
    return {
      refusal: row.refusal,
      detail: { kind: detail.kind, endsAt: new Date(detail.endsAt as string).getTime() },
    };
  if (row.refusal === 'spend_limit')
    return {
      refusal: row.refusal,
      detail: { ...detail, end: new Date(detail.end as string).getTime() },
    };
  return { refusal: row.refusal, detail };
}

async function readSettings(db: Database): Promise<Settings> {
  const [row] = await rowsOf<{ daily: number | null; minimum: string }>(
    db,
    sql`SELECT daily_game_limit AS daily, minimum_payment_amount::text AS minimum
        FROM settings WHERE id = 1`,
  );
  if (!row) throw new Error('no settings row');
  return { dailyGameLimit: row.daily, minimum: BigInt(row.minimum) };
}

async function newSession(db: Database, userId: string): Promise<Actor> {
  const [row] = await rowsOf<{ id: string; version: number }>(
    db,
    sql`INSERT INTO sessions (user_id, expires_at) VALUES (${userId}, '2100-01-01T00:00:00Z')
        RETURNING id, (SELECT token_version FROM users WHERE id = ${userId}) AS version`,
  );
  if (!row) throw new Error('no session');
  return { id: userId, sessionId: row.id, tokenVersion: row.version };
}

async function apply(
  db: Database,
  action: Action,
  players: ModelPlayer[],
  plans: Plan[],
  settings: Settings,
  clock: { now: Date },
): Promise<void> {
  const now = clock.now;
  if (action.type === 'wait') {
    clock.now = new Date(now.getTime() + action.hours * HOUR);
    return;
  }
  if (action.type === 'move' || action.type === 'edit') {
    const game = gamesInRun[action.game] as ModelGame;
    if (action.type === 'edit') {
      // An operator's edit, which is refused once anyone has played.
      if (game.players > 0) return;
      await db.execute(sql`UPDATE games SET entry_fee = ${naira(action.fee)},
        reward = ${naira(action.reward)} WHERE id = ${game.id}`);
      game.fee = naira(action.fee);
      game.reward = naira(action.reward);
      return;
    }
    const allowed = action.to === 'ONGOING' ? game.status === 'UPCOMING' : game.status !== 'CLOSED';
    if (!allowed) return;
    await db.execute(sql`UPDATE games SET status = ${action.to} WHERE id = ${game.id}`);
    game.status = action.to;
    return;
  }
  const player = players[action.player] as ModelPlayer;
  const id = player.actor.id;
  switch (action.type) {
    case 'play': {
      const game = gamesInRun[action.game] as ModelGame;
      const shown = (seen: Seen, kobo: bigint) =>
        seen === 'none' ? undefined : Number(seen === 'shown' ? kobo : kobo + 100n) / 100;
      const expected = decide(player, game, action, settings, now);
      const input = {
        gameID: game.id,
        submittedAnswer: 'Jollof rice',
        entryFee: shown(action.fee, game.fee),
        reward: shown(action.reward, game.reward),
      };
      const row = await playOnce(
        db,
        playArguments(player.actor, input, 'Jollof rice', now, lagosDayStart(now)),
        now,
      );
      expect(comparable(row), JSON.stringify({ action, row })).toEqual(expected);
      if (expected.refusal !== null) return;
      game.players += 1;
      if (expected.last) game.status = 'CLOSED';
      player.balance -= game.fee;
      player.entries.push({ game: game.id, fee: game.fee, at: now });
      const dayStart = lagosDayStart(now);
      player.dailyGames =
        player.dailyGamesDay && player.dailyGamesDay >= dayStart ? player.dailyGames + 1 : 1;
      player.dailyGamesDay = dayStart;
      return;
    }
    case 'topUp':
      await fundWallet(db, id, naira(action.naira));
      player.balance += naira(action.naira);
      return;
    case 'limit': {
      const pending = action.pending && {
        amount: action.pending.naira === null ? null : naira(action.pending.naira),
        from: new Date(now.getTime() + (action.pending.due ? -HOUR : HOUR)),
      };
      await db.execute(sql`INSERT INTO play_limits (user_id, kind, period, amount, pending_amount,
          pending_removal, pending_from)
        VALUES (${id}, 'spend', ${action.period}, ${naira(action.naira)},
          ${pending?.amount ?? null}, ${pending !== null && pending.amount === null},
          ${pending?.from.toISOString() ?? null}::timestamptz)
        ON CONFLICT (user_id, kind, period) DO UPDATE SET amount = EXCLUDED.amount,
          pending_amount = EXCLUDED.pending_amount, pending_removal = EXCLUDED.pending_removal,
          pending_from = EXCLUDED.pending_from`);
      player.limits.set(action.period, { amount: naira(action.naira), pending });
      return;
    }
    case 'break': {
      const endsAt = new Date(now.getTime() + action.hours * HOUR);
      await db.execute(sql`INSERT INTO play_exclusions (user_id, kind, starts_at, ends_at)
        VALUES (${id}, 'timeout', ${new Date(now.getTime() - 60_000).toISOString()}::timestamptz,
          ${endsAt.toISOString()}::timestamptz)`);
      if (!player.breakEnds || player.breakEnds < endsAt) player.breakEnds = endsAt;
      return;
    }
    case 'plan': {
      const plan = action.plan === null ? null : (plans[action.plan] as Plan);
      await db.execute(sql`UPDATE users SET plan_id = ${plan?.id ?? null} WHERE id = ${id}`);
      player.plan = plan;
      return;
    }
    case 'age':
      await db.execute(sql`UPDATE users SET age_confirmed_at =
        ${action.confirmed ? now.toISOString() : null}::timestamptz WHERE id = ${id}`);
      player.ageConfirmed = action.confirmed;
      return;
    case 'suspend':
      await db.execute(sql`UPDATE users SET suspended_at =
        ${action.suspended ? now.toISOString() : null}::timestamptz WHERE id = ${id}`);
      player.suspended = action.suspended;
      return;
    case 'session':
      if (action.signIn) {
        player.actor = await newSession(db, id);
        player.loggedOut = false;
        return;
      }
      await db.execute(
        sql`UPDATE sessions SET revoked_at = now() WHERE id = ${player.actor.sessionId}`,
      );
      player.loggedOut = true;
      return;
  }
}

describe('one play, decided by pluckers_play', () => {
  it('answers every play as the model of the rules does, and leaves wallets and games as it says', async () => {
    const db = database().db;
    const settings = await readSettings(db);
    const plans: Plan[] = [];
    const playersInAllRuns: string[] = [];
    for (const features of [
      { gamesPerDay: 1, tournamentAccess: false },
      { gamesPerDay: null, tournamentAccess: true },
      { gamesPerDay: 3, tournamentAccess: true },
    ]) {
      const row = await createPlan(db, features);
      plans.push({ id: row.id, ...features });
    }

    await fc.assert(
      fc.asyncProperty(
        fc.date({
          min: new Date('2026-01-01T00:00:00Z'),
          max: new Date('2027-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.array(gameArbitrary, { minLength: GAMES, maxLength: GAMES }),
        fc.array(
          fc.record({
            naira: fc.constantFrom(0, 400, 2000),
            plan: fc.option(fc.nat(2), { nil: null }),
          }),
          { minLength: PLAYERS, maxLength: PLAYERS },
        ),
        fc.array(actionArbitrary, { minLength: 10, maxLength: 40 }),
        async (start, gameShapes, wallets, actions) => {
          const clock = { now: start };
          gamesInRun = [];
          for (const shape of gameShapes) {
            const row = await createGame(db, {
              entryFee: naira(shape.fee),
              reward: naira(shape.reward),
              maximumPlayers: shape.max,
              status: shape.status,
              isTournament: shape.tournament,
            });
            gamesInRun.push({
              id: row.id,
              fee: naira(shape.fee),
              reward: naira(shape.reward),
              status: shape.status,
              players: 0,
              max: shape.max,
              tournament: shape.tournament,
            });
          }
          const players: ModelPlayer[] = [];
          for (const wallet of wallets) {
            const plan = wallet.plan === null ? null : (plans[wallet.plan] as Plan);
            const row = await createPlayer(db, {
              kobo: naira(wallet.naira),
              bank: null,
              planId: plan?.id,
            });
            players.push({
              actor: await newSession(db, row.id),
              balance: naira(wallet.naira),
              ageConfirmed: row.ageConfirmedAt !== null,
              suspended: false,
              loggedOut: false,
              plan,
              dailyGames: 0,
              dailyGamesDay: null,
              entries: [],
              breakEnds: null,
              limits: new Map(),
            });
          }
          for (const action of actions) await apply(db, action, players, plans, settings, clock);

          const ids = players.map((player) => player.actor.id);
          const balances = await rowsOf<{ id: string; balance: string }>(
            db,
            sql`SELECT id, account_balance::text AS balance FROM users
                WHERE id IN ${ids}`,
          );
          const byId = new Map(balances.map((row) => [row.id, BigInt(row.balance)]));
          expect(ids.map((id) => byId.get(id))).toEqual(players.map((player) => player.balance));
          const games = await rowsOf<{ id: string; status: string; players: number }>(
            db,
            sql`SELECT id, status, player_count AS players FROM games
                WHERE id IN ${gamesInRun.map((game) => game.id)}`,
          );
          const gameById = new Map(games.map((row) => [row.id, row]));
          expect(gamesInRun.map((game) => gameById.get(game.id))).toEqual(
            gamesInRun.map((game) => ({ id: game.id, status: game.status, players: game.players })),
          );
          playersInAllRuns.push(...ids);
        },
      ),
      { numRuns: 40, endOnFailure: true },
    );
    await expectLedgerOk(db, playersInAllRuns);
  }, 180_000);
});
