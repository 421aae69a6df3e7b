import { randomBytes, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import type { Database, Executor } from '../db/client.ts';
import { banks, operatorSecondFactors, sessions, users } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import type { Actor } from '../modules/auth/live-account.ts';
import {
  confirmEnrolment,
  proveSecondFactor,
  startEnrolment,
} from '../modules/auth/second-factor.ts';
import { authContextOf } from '../modules/auth/service.ts';
import { base32Decode, hotp, TOTP_DRIFT_STEPS, totpStep } from '../modules/auth/totp.ts';
import { ACCOUNTS, post } from '../modules/wallet/ledger.ts';
import { nubanCheckDigit } from '../modules/withdrawals/nuban.ts';

/**
 * The one home of test data (server tests, and the web tests' server process): users, players
 * with money and a bank account, operators, sessions, and a clock to move. Everything a factory
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

export async function createUser(
  db: Executor,
  overrides: Partial<typeof users.$inferInsert> = {},
): Promise<UserRow> {
  const suffix = uniqueSuffix();
  const [user] = await db
    .insert(users)
    .values({
      handle: `p_${suffix}`.slice(0, 20),
      fullname: `Test Plucker ${suffix}`,
      email: `plucker-${suffix}@example.test`,
      phoneNumber: uniquePhone(),
      emailVerifiedAt: new Date(),
      // Signed up through the form, which confirms 18+ (Google sign-ups: pass null).
      ageConfirmedAt: new Date(),
      ...overrides,
    })
    .returning();
  if (!user) throw new Error('createUser: insert returned nothing');
  return user;
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
