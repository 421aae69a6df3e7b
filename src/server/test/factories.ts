import { randomBytes, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import type { PlanFeatures } from '../../shared/schemas/plans.ts';
import type { Database, Executor } from '../db/client.ts';
import { banks, games, operatorSecondFactors, plans, sessions, users } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import type { Actor } from '../modules/auth/live-account.ts';
import {
  confirmEnrolment,
  proveSecondFactor,
  startEnrolment,
} from '../modules/auth/second-factor.ts';
import { authContextOf } from '../modules/auth/service.ts';
import { base32Decode, hotp, TOTP_DRIFT_STEPS, totpStep } from '../modules/auth/totp.ts';
import { createDrawSeed, publishCommitment } from '../modules/draws/commitment.ts';
import { ACCOUNTS, post } from '../modules/wallet/ledger.ts';
import { nubanCheckDigit } from '../modules/withdrawals/nuban.ts';

/**
 * The one home of test data (server tests, and the web tests' server process): users, players
 * with money and a bank account, crowds of players, operators, sessions, games and plans, and a
 * clock to move. Everything a factory
 * makes is unique (suffixes, random account numbers), so test files run in parallel on one
 * database without emptying tables.
 */

let sequence = 0;

/** A short suffix unique across parallel files and runs sharing one database. */
export function uniqueSuffix(): string {
  sequence += 1;
  return `${randomBytes(4).toString('hex')}${sequence.toString(36)}`;
}

/**
 * A valid Nigerian mobile number no other test player has: a phone number ties accounts to one
 * person (a break binds every account sharing it), so players that share one are not strangers.
 */
export function uniquePhone(): string {
  return `+234803${String(randomInt(10_000_000)).padStart(7, '0')}`;
}

export type UserRow = typeof users.$inferSelect;

/** A verified player's row as a sign-up makes it, every unique field fresh. */
function userValues(
  overrides: Partial<typeof users.$inferInsert>,
  phoneNumber = uniquePhone(),
): typeof users.$inferInsert {
  const suffix = uniqueSuffix();
  return {
    handle: `p_${suffix}`.slice(0, 20),
    fullname: `Test Plucker ${suffix}`,
    email: `plucker-${suffix}@example.test`,
    phoneNumber,
    emailVerifiedAt: new Date(),
    // Signed up through the form, which confirms 18+ (Google sign-ups: pass null).
    ageConfirmedAt: new Date(),
    ...overrides,
  };
}

export async function createUser(
  db: Executor,
  overrides: Partial<typeof users.$inferInsert> = {},
): Promise<UserRow> {
  const [user] = await db.insert(users).values(userValues(overrides)).returning();
  if (!user) throw new Error('createUser: insert returned nothing');
  return user;
}

/**
 * `count` players in one insert, for tests that need a crowd (a big draw, a fan-out, a
 * leaderboard): each as `createUser` makes one, with `each(index)`'s overrides. Their phone
 * numbers differ from each other too, so no two of them count as one person.
 */
export async function createPlayers(
  db: Executor,
  count: number,
  each: (index: number) => Partial<typeof users.$inferInsert> = () => ({}),
): Promise<UserRow[]> {
  const phones = new Set<string>();
  while (phones.size < count) phones.add(uniquePhone());
  const numbers = [...phones];
  const rows = await db
    .insert(users)
    .values(Array.from({ length: count }, (_, index) => userValues(each(index), numbers[index])))
    .returning();
  if (rows.length !== count) throw new Error('createPlayers: insert returned too few rows');
  return rows;
}

/**
 * A bearer token as a login issues it; an operator's is also proved with the second factor, as
 * the console's code prompt does (`proveOperatorToken`), so it opens the console.
 */
export async function bearerFor(
  app: FastifyInstance,
  user: UserRow,
): Promise<{ authorization: string }> {
  const token = await app.tokens.sign(user);
  if (user.role === 'admin') await proveOperatorToken(app, user, token);
  return { authorization: `Bearer ${token}` };
}

/** What a test process knows of the operators it enrolled: the authenticator's secret, codes. */
const authenticators = new Map<string, { secret: string; recoveryCodes: string[] }>();

/**
 * Proves an operator's second factor on the session of `token` through the real services: the
 * first time, enrols an authenticator (kept in this process, as a phone would keep it) and
 * confirms it with its code; after, enters a code of a step not used yet (the current one or
 * the next), or a recovery code when both are used. Codes are computed from the secret at the
 * app's clock, so tests that move the clock keep working.
 */
export async function proveOperatorToken(
  app: FastifyInstance,
  user: Pick<UserRow, 'id' | 'email'>,
  token: string,
): Promise<void> {
  const sessionId = decodeJwt(token).sid;
  if (typeof sessionId !== 'string') throw new Error('proveOperatorToken: token without a session');
  const ctx = authContextOf(app, 'http://pluckers.test');
  const operator = { id: user.id, sessionId };
  const nowMs = app.clock.now().getTime();
  const [enrolment] = await app.db
    .select()
    .from(operatorSecondFactors)
    .where(eq(operatorSecondFactors.userId, user.id));
  const known = authenticators.get(user.id);
  if (!enrolment?.confirmedAt) {
    const { secret } = await startEnrolment(ctx, user.id);
    const current = totpStep(nowMs);
    const { recoveryCodes } = await confirmEnrolment(
      ctx,
      operator,
      hotp(base32Decode(secret), current),
    );
    authenticators.set(user.id, { secret, recoveryCodes });
    return;
  }
  if (!known) throw new Error(`operator ${user.email} was enrolled outside this test process`);
  const current = totpStep(nowMs);
  for (let step = current; step <= current + TOTP_DRIFT_STEPS; step += 1) {
    if (enrolment.lastStep === null || step > enrolment.lastStep) {
      await proveSecondFactor(ctx, operator, hotp(base32Decode(known.secret), step));
      return;
    }
  }
  const recovery = known.recoveryCodes.shift();
  if (!recovery) throw new Error(`operator ${user.email} has no recovery codes left`);
  await proveSecondFactor(ctx, operator, recovery);
}

/**
 * A signed-in player as the money-moving services see them: the account with a live session,
 * for tests that call those services directly rather than through a route.
 */
export async function actorFor(
  db: Executor,
  user: Pick<UserRow, 'id' | 'tokenVersion'>,
): Promise<Actor> {
  const [session] = await db
    .insert(sessions)
    .values({ userId: user.id, expiresAt: new Date(Date.now() + 7 * 24 * 3_600_000) })
    .returning({ id: sessions.id });
  if (!session) throw new Error('actorFor: insert returned nothing');
  return { id: user.id, sessionId: session.id, tokenVersion: user.tokenVersion };
}

/**
 * A clock tests set and move, passed to buildTestApp (or a service) as its `clock`: starts at
 * `start` (default: now), `set` jumps to a date, `advance` adds milliseconds.
 */
export interface TestClock extends Clock {
  set(date: Date | string | number): void;
  advance(ms: number): void;
}

export function testClock(start: Date | string | number = new Date()): TestClock {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    set(date) {
      now = new Date(date).getTime();
    },
    advance(ms) {
      now += ms;
    },
  };
}

/** A valid 10-digit NUBAN at a 3-digit bank code, with a random serial. */
export function validNuban(bankCode: string): string {
  const serial = String(randomInt(0, 1_000_000_000)).padStart(9, '0');
  return `${serial}${nubanCheckDigit(serial, bankCode)}`;
}

export async function bankByCode(db: Executor, code: string) {
  const [bank] = await db.select().from(banks).where(eq(banks.code, code));
  if (!bank) throw new Error(`bank ${code} is not seeded`);
  return bank;
}

/**
 * Credits a wallet from the `clearing:payments:test` account: a balanced ledger posting, as a
 * settled top-up would make, so the ledger check stays green.
 */
export async function fundWallet(db: Database, userId: string, kobo: bigint): Promise<void> {
  if (kobo === 0n) return;
  await db.transaction((tx) =>
    post(tx, {
      kind: 'test_topup',
      reference: `test-topup:${userId}:${uniqueSuffix()}`,
      description: 'test funds',
      lines: [
        { account: ACCOUNTS.wallet, userId, amount: kobo },
        { account: ACCOUNTS.paymentClearing('test'), amount: -kobo },
      ],
    }),
  );
}

/**
 * A verified player with `kobo` in the wallet, on `planId` (default: no plan) and, unless
 * `bank: null`, a saved account at that bank code (default GTBank, 058). Read back after
 * funding, so the row carries the balance.
 */
export async function createPlayer(
  db: Database,
  options: {
    kobo?: bigint;
    bank?: string | null;
    planId?: string;
    overrides?: Partial<typeof users.$inferInsert>;
  } = {},
): Promise<UserRow> {
  let bankFields: Partial<typeof users.$inferInsert> = {};
  if (options.bank !== null) {
    const bank = await bankByCode(db, options.bank ?? '058');
    bankFields = {
      bankId: bank.id,
      bankAccountNumber: validNuban(bank.code),
      bankAccountName: 'ADA OBI',
    };
  }
  const user = await createUser(db, {
    ...bankFields,
    planId: options.planId ?? null,
    ...options.overrides,
  });
  await fundWallet(db, user.id, options.kobo ?? 0n);
  const [fresh] = await db.select().from(users).where(eq(users.id, user.id));
  if (!fresh) throw new Error('createPlayer: user vanished');
  return fresh;
}

export function createAdmin(db: Executor): Promise<UserRow> {
  return createUser(db, { role: 'admin' });
}

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

const NO_FEATURES: PlanFeatures = {
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
