import { createHash, randomBytes } from 'node:crypto';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import {
  SECOND_FACTOR_MESSAGES,
  type SecondFactorConfirmed,
  type SecondFactorEnrolment,
  type SecondFactorProved,
  type SecondFactorStatus,
} from '../../../shared/schemas/second-factor.ts';
import type { Executor } from '../../db/client.ts';
import { operatorRecoveryCodes, operatorSecondFactors, sessions, users } from '../../db/schema.ts';
import { badRequest, conflict, ErrorCode, notFound } from '../../errors.ts';
import type { AuthContext } from './service.ts';
import { guardedGuess } from './step-up.ts';
import {
  base32Encode,
  generateTotpSecret,
  matchTotp,
  openSecret,
  otpauthUri,
  sealSecret,
} from './totp.ts';

/**
 * Operators' second factor: a TOTP authenticator (RFC 6238) enrolled at the first console login,
 * proved on each session after the password. The console's routes refuse a session without a
 * proof (plugins/auth.ts requireAdmin); payouts, wallet adjustments, lifted breaks and settings
 * want one from the last 15 minutes (requireFreshSecondFactor), so neither a password alone nor
 * an old stolen token can move money.
 *
 * Codes of the current 30-second step and one either side are accepted, each step once (the
 * last accepted step is kept). Wrong codes count in the same per-user throttle as the
 * password step-up (step-up.ts guardedGuess). Ten recovery codes, shown once and kept as
 * SHA-256 hashes (80 random bits each, so a hash alone cannot be walked back), each stand in
 * for the authenticator once.
 */

export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Pluckers';

type Db = AuthContext['db'];

function recoveryHash(userId: string, code: string): string {
  return createHash('sha256')
    .update(`${userId}:${normalizeRecoveryCode(code)}`)
    .digest('hex');
}

function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/**
 * 16 base32 characters (80 bits) in groups of four, easy to copy from paper: capitals and the
 * digits 2-7, so no 0/O or 1/l to confuse; typed in any case, with or without the dashes.
 */
function newRecoveryCode(): string {
  return base32Encode(randomBytes(10)).replace(/(.{4})(?=.)/g, '$1-');
}

async function enrolmentOf(db: Executor, userId: string) {
  const [row] = await db
    .select()
    .from(operatorSecondFactors)
    .where(eq(operatorSecondFactors.userId, userId))
    .limit(1);
  return row;
}

async function recoveryCodesLeft(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ left: count() })
    .from(operatorRecoveryCodes)
    .where(and(eq(operatorRecoveryCodes.userId, userId), isNull(operatorRecoveryCodes.usedAt)));
  return row?.left ?? 0;
}

async function markSessionProved(db: Executor, userId: string, sessionId: string, at: Date) {
  await db
    .update(sessions)
    .set({ secondFactorAt: at })
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
}

export async function secondFactorStatus(
  db: Db,
  userId: string,
  sessionId: string,
): Promise<SecondFactorStatus> {
  const [enrolment, [session], left] = await Promise.all([
    enrolmentOf(db, userId),
    db
      .select({ secondFactorAt: sessions.secondFactorAt })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
      .limit(1),
    recoveryCodesLeft(db, userId),
  ]);
  return {
    enrolled: Boolean(enrolment?.confirmedAt),
    provedAt: session?.secondFactorAt?.toISOString() ?? null,
    recoveryCodesLeft: left,
  };
}

/**
 * Starts (or restarts) enrolment: a new secret, kept sealed until a code from it confirms it.
 * Refused once an authenticator is confirmed: the secret is never handed out again, and a
 * password alone must not be able to swap the operator's authenticator for its own.
 */
export async function startEnrolment(
  ctx: AuthContext,
  userId: string,
): Promise<SecondFactorEnrolment> {
  const [account] = await ctx.db
    .select({ email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!account) throw notFound('User not found');
  const secret = generateTotpSecret();
  const sealed = sealSecret(ctx.pepper, secret);
  const now = ctx.clock.now();
  const [written] = await ctx.db
    .insert(operatorSecondFactors)
    .values({ userId, secret: sealed, createdAt: now })
    .onConflictDoUpdate({
      target: operatorSecondFactors.userId,
      set: { secret: sealed, lastStep: null, createdAt: now },
      setWhere: isNull(operatorSecondFactors.confirmedAt),
    })
    .returning({ userId: operatorSecondFactors.userId });
  if (!written) throw conflict(SECOND_FACTOR_MESSAGES.alreadyEnrolled);
  return { secret, otpauthUri: otpauthUri({ issuer: ISSUER, account: account.email, secret }) };
}

const wrongCode = () => badRequest(SECOND_FACTOR_MESSAGES.wrong, ErrorCode.ProofRefused);

/**
 * Confirms enrolment with the first code of the new authenticator: the session is proved, and
 * the recovery codes (replacing any earlier ones) are returned, the only time they are shown.
 */
export async function confirmEnrolment(
  ctx: AuthContext,
  user: { id: string; sessionId: string },
  code: string,
): Promise<SecondFactorConfirmed> {
  const now = ctx.clock.now();
  let recoveryCodes: string[] = [];
  await guardedGuess(
    ctx,
    user.id,
    () =>
      ctx.db.transaction(async (tx) => {
        const [enrolment] = await tx
          .select()
          .from(operatorSecondFactors)
          .where(eq(operatorSecondFactors.userId, user.id))
          .for('update');
        if (!enrolment) throw badRequest(SECOND_FACTOR_MESSAGES.notStarted);
        if (enrolment.confirmedAt) throw conflict(SECOND_FACTOR_MESSAGES.alreadyEnrolled);
        const secret = openSecret(ctx.pepper, enrolment.secret);
        const step = matchTotp(secret, code.trim(), now.getTime(), enrolment.lastStep);
        if (step === null) return false;
        await tx
          .update(operatorSecondFactors)
          .set({ confirmedAt: now, lastStep: step })
          .where(eq(operatorSecondFactors.userId, user.id));
        recoveryCodes = await replaceRecoveryCodes(tx, user.id, now);
        await markSessionProved(tx, user.id, user.sessionId, now);
        return true;
      }),
    wrongCode,
  );
  ctx.forgetSessions(user.id);
  return { recoveryCodes, provedAt: now.toISOString() };
}

async function replaceRecoveryCodes(tx: Executor, userId: string, now: Date): Promise<string[]> {
  await tx.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx
    .insert(operatorRecoveryCodes)
    .values(
      codes.map((code) => ({ userId, codeHash: recoveryHash(userId, code), createdAt: now })),
    );
  return codes;
}

/**
 * Proves the second factor on the caller's session: the authenticator's 6-digit code, or one
 * of the recovery codes (used up).
 */
export async function proveSecondFactor(
  ctx: AuthContext,
  user: { id: string; sessionId: string },
  code: string,
): Promise<SecondFactorProved> {
  const now = ctx.clock.now();
  const typed = code.trim();
  await guardedGuess(
    ctx,
    user.id,
    () =>
      ctx.db.transaction(async (tx) => {
        const [enrolment] = await tx
          .select()
          .from(operatorSecondFactors)
          .where(eq(operatorSecondFactors.userId, user.id))
          .for('update');
        if (!enrolment?.confirmedAt) throw badRequest(SECOND_FACTOR_MESSAGES.enrolmentRequired);
        if (/^\d{6}$/.test(typed)) {
          const secret = openSecret(ctx.pepper, enrolment.secret);
          const step = matchTotp(secret, typed, now.getTime(), enrolment.lastStep);
          if (step === null) return false;
          await tx
            .update(operatorSecondFactors)
            .set({ lastStep: step })
            .where(eq(operatorSecondFactors.userId, user.id));
        } else {
          const used = await tx
            .update(operatorRecoveryCodes)
            .set({ usedAt: now })
            .where(
              and(
                eq(operatorRecoveryCodes.userId, user.id),
                eq(operatorRecoveryCodes.codeHash, recoveryHash(user.id, typed)),
                isNull(operatorRecoveryCodes.usedAt),
              ),
            )
            .returning({ id: operatorRecoveryCodes.id });
          if (used.length === 0) return false;
        }
        await markSessionProved(tx, user.id, user.sessionId, now);
        return true;
      }),
    wrongCode,
  );
  ctx.forgetSessions(user.id);
  return {
    provedAt: now.toISOString(),
    recoveryCodesLeft: await recoveryCodesLeft(ctx.db, user.id),
  };
}

/**
 * Removes an operator's authenticator and recovery codes and ends their sessions (a lost phone
 * and no recovery codes left): their next console login enrols again. Run from the server's
 * shell (scripts/admin.ts), where whoever runs it already holds the keys.
 */
export async function resetSecondFactor(db: Db, userId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(operatorRecoveryCodes).where(eq(operatorRecoveryCodes.userId, userId));
    await tx.delete(operatorSecondFactors).where(eq(operatorSecondFactors.userId, userId));
    await tx
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, userId));
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  });
}
