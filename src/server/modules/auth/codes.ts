import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emailCodes } from '../../db/schema.ts';
import { AppError, badRequest, ErrorCode } from '../../errors.ts';

export type CodePurpose = 'verify_email' | 'reset_password' | 'change_email' | 'step_up';

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_MAX_ATTEMPTS = 5;
export const RESEND_COOLDOWN_MS = 60_000;
/** Names the advisory locks that serialise code issues (first key of the two-key form). */
const CODE_ISSUE_LOCK = 727_002;

export const CODE_MESSAGES = {
  invalid: 'Invalid or expired code',
  locked: 'Too many attempts. Request a new code.',
} as const;

export function cooldownError(secondsLeft: number): AppError {
  return new AppError(
    ErrorCode.TooManyRequests,
    `Please wait ${secondsLeft} seconds before requesting another code`,
  );
}

/** Codes are stored as an HMAC keyed by a server secret, never in the clear. */
function digest(pepper: Uint8Array, email: string, purpose: CodePurpose, code: string): string {
  return createHmac('sha256', pepper).update(`${purpose}:${email}:${code}`).digest('hex');
}

/**
 * Issues a fresh 6-digit code (CSPRNG), replacing any earlier one. Refuses with 429 inside the
 * 60 s cooldown after the previous code, unless `ignoreCooldown` (the one mail a sign-up sends:
 * the account already exists by then, so refusing would leave it without its mail).
 */
export async function issueCode(
  db: Executor,
  pepper: Uint8Array,
  email: string,
  purpose: CodePurpose,
  now: Date,
  options: { ignoreCooldown?: boolean } = {},
): Promise<string> {
  // One issue at a time per address and purpose: two requests answered at once (their work runs
  // after the answer) would otherwise both pass the cooldown and mail two codes.
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(${CODE_ISSUE_LOCK}, hashtext(${`${purpose}:${email}`}))`,
    );
    return issueCodeLocked(tx, pepper, email, purpose, now, options);
  });
}

async function issueCodeLocked(
  db: Executor,
  pepper: Uint8Array,
  email: string,
  purpose: CodePurpose,
  now: Date,
  options: { ignoreCooldown?: boolean },
): Promise<string> {
  const [latest] = await db
    .select({ createdAt: emailCodes.createdAt })
    .from(emailCodes)
    .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)))
    .orderBy(desc(emailCodes.id))
    .limit(1);
  if (latest && !options.ignoreCooldown) {
    const waitMs = latest.createdAt.getTime() + RESEND_COOLDOWN_MS - now.getTime();
    if (waitMs > 0) throw cooldownError(Math.ceil(waitMs / 1000));
  }
  const code = randomInt(0, 1_000_000).toString().padStart(6, '0');
  await db
    .update(emailCodes)
    .set({ consumedAt: now })
    .where(
      and(
        eq(emailCodes.email, email),
        eq(emailCodes.purpose, purpose),
        isNull(emailCodes.consumedAt),
      ),
    );
  await db.insert(emailCodes).values({
    email,
    purpose,
    codeHash: digest(pepper, email, purpose, code),
    expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    createdAt: now,
  });
  return code;
}

/**
 * Checks a code against the newest live one for this address. Every guess spends one of the
 * code's 5 attempts before it is compared, in one conditional statement, so guesses sent all at
 * once cannot all read the same count; after the fifth the code is locked. Success consumes it
 * (conditionally, so two requests can't both use it).
 */
export async function consumeCode(
  db: Executor,
  pepper: Uint8Array,
  email: string,
  purpose: CodePurpose,
  code: string,
  now: Date,
): Promise<void> {
  const [current] = await db
    .select()
    .from(emailCodes)
    .where(
      and(
        eq(emailCodes.email, email),
        eq(emailCodes.purpose, purpose),
        isNull(emailCodes.consumedAt),
      ),
    )
    .orderBy(desc(emailCodes.id))
    .limit(1);
  if (!current || current.expiresAt <= now)
    throw badRequest(CODE_MESSAGES.invalid, ErrorCode.ProofRefused);

  const [spent] = await db
    .update(emailCodes)
    .set({ attempts: sql`${emailCodes.attempts} + 1` })
    .where(
      and(
        eq(emailCodes.id, current.id),
        isNull(emailCodes.consumedAt),
        lt(emailCodes.attempts, CODE_MAX_ATTEMPTS),
      ),
    )
    .returning({ attempts: emailCodes.attempts });
  if (!spent) {
    const [latest] = await db
      .select({ consumedAt: emailCodes.consumedAt })
      .from(emailCodes)
      .where(eq(emailCodes.id, current.id));
    throw badRequest(
      latest?.consumedAt ? CODE_MESSAGES.invalid : CODE_MESSAGES.locked,
      ErrorCode.ProofRefused,
    );
  }

  const expected = Buffer.from(current.codeHash, 'hex');
  const actual = Buffer.from(digest(pepper, email, purpose, code), 'hex');
  if (!timingSafeEqual(expected, actual)) {
    throw badRequest(
      spent.attempts >= CODE_MAX_ATTEMPTS ? CODE_MESSAGES.locked : CODE_MESSAGES.invalid,
      ErrorCode.ProofRefused,
    );
  }
  const consumed = await db
    .update(emailCodes)
    .set({ consumedAt: now })
    .where(and(eq(emailCodes.id, current.id), isNull(emailCodes.consumedAt)))
    .returning({ id: emailCodes.id });
  if (consumed.length === 0) throw badRequest(CODE_MESSAGES.invalid, ErrorCode.ProofRefused);
}
