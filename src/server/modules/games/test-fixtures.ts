/**
 * Data builders for the games, draws, leaderboard and admin tests. Everything they create is
 * unique (tests share one database on PostgreSQL), and money only moves through the ledger so
 * `checkLedger` stays green.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { PlanFeatures } from '../../../shared/schemas/plans.ts';
import type { Database, Executor } from '../../db/client.ts';
import { games, plans } from '../../db/schema.ts';
import { bearerFor, type UserRow, uniqueSuffix } from '../../test/factories.ts';
import { createDrawSeed, publishCommitment } from '../draws/commitment.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

export type GameRow = typeof games.$inferSelect;

export async function createGame(
  db: Executor,
  values: Partial<typeof games.$inferInsert> = {},
): Promise<GameRow> {
  const [game] = await db
    .insert(games)
    .values({
      title: `Game ${uniqueSuffix()}`,
      entryFee: 0n,
      reward: 50_000n,
      maximumPlayers: 10,
      ...createDrawSeed(),
      ...values,
    })
    .returning();
  if (!game) throw new Error('createGame: insert returned nothing');
  await publishCommitment(db, game);
  return game;
}

export const NO_FEATURES: PlanFeatures = {
  getVerifiedBadge: false,
  gamesPerDay: 5,
  tournamentAccess: false,
  earlyTournamentInvite: false,
  priorityLeaderboardPlacement: false,
  showAds: true,
};

/** A plan row of its own with the given features (the seeded VIP plan is left alone). */
export async function createPlan(db: Executor, features: Partial<PlanFeatures>) {
  const [plan] = await db
    .insert(plans)
    .values({
      planName: `Test plan ${uniqueSuffix()}`,
      amountPerDay: 10_000n,
      features: { ...NO_FEATURES, ...features },
    })
    .returning();
  if (!plan) throw new Error('createPlan: insert returned nothing');
  return plan;
}

export async function play(
  app: FastifyInstance,
  user: UserRow,
  gameID: string,
  submittedAnswer = 'Suya at midnight',
) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/game/play',
    headers: await bearerFor(app, user),
    payload: { gameID, submittedAnswer },
  });
}

/**
 * The database with a fault planted at its `step`-th write (insert, update, delete or execute,
 * inside or outside a transaction): that call throws, as a crash or a failed statement would at
 * that point. Lets a test walk a multi-step operation through a failure at every step.
 */
export function failingAtWrite(db: Database, step: number) {
  let writes = 0;
  let failed = false;
  const write = () => {
    writes += 1;
    if (writes === step) {
      failed = true;
      throw new Error(`injected failure at write ${step}`);
    }
  };
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property) {
        const value: unknown = Reflect.get(object, property, object);
        if (typeof value !== 'function') return value;
        if (property === 'transaction') {
          return (work: (tx: object) => Promise<unknown>, ...rest: unknown[]) =>
            value.call(object, (tx: object) => work(wrap(tx)), ...rest);
        }
        if (['insert', 'update', 'delete', 'execute'].includes(String(property))) {
          return (...args: unknown[]) => {
            write();
            return value.apply(object, args);
          };
        }
        return value.bind(object);
      },
    });
  return { db: wrap(db), failed: () => failed, writes: () => writes };
}

/**
 * checkLedger, with one allowance for a database other test files share: a cached balance that
 * disagrees with its entries only fails the test when it belongs to one of `userIds` (another
 * file may plant such a user on purpose). Those users are also checked one by one, exactly.
 */
export async function expectLedgerOk(db: Database, userIds: readonly string[]): Promise<void> {
  const perUser = new Set(['wallet_balances_match_entries', 'no_negative_balances']);
  const mine = new Set(userIds);
  // Game tests run the sandbox (no provider configured): sandbox top-ups are expected there.
  for (const invariant of (await checkLedger(db, { sandbox: true })).invariants) {
    const offending = perUser.has(invariant.name)
      ? invariant.offending.filter((row) => mine.has(String(row.user_id)))
      : invariant.offending;
    expect(offending, invariant.name).toEqual([]);
  }
  if (userIds.length === 0) return;
  const result = await db.execute(sql`
    SELECT u.id, u.account_balance::text AS cached,
      coalesce((SELECT sum(e.amount) FROM ledger_entries e
        WHERE e.account = 'wallet' AND e.user_id = u.id), 0)::text AS from_entries
    FROM users u WHERE u.id IN (${sql.join(
      userIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  const rows = (
    result as unknown as { rows: Array<{ id: string; cached: string; from_entries: string }> }
  ).rows;
  expect(rows).toHaveLength(mine.size);
  for (const row of rows) {
    expect(BigInt(row.cached) >= 0n, row.id).toBe(true);
    expect(row.cached, row.id).toBe(row.from_entries);
  }
}
