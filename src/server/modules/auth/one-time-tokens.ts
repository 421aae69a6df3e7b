import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { oneTimeTokens } from '../../db/schema.ts';

export type OneTimePurpose = 'validate_email' | 'login';

export const ONE_TIME_TTL_MS: Record<OneTimePurpose, number> = {
  validate_email: 24 * 3_600_000,
  login: 5 * 60_000,
};

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createOneTimeToken(
  db: Executor,
  userId: string,
  purpose: OneTimePurpose,
  now: Date,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(oneTimeTokens).values({
    tokenHash: hashToken(token),
    userId,
    purpose,
    expiresAt: new Date(now.getTime() + ONE_TIME_TTL_MS[purpose]),
    createdAt: now,
  });
  return token;
}

/** Uses a token once: the conditional update means a replay (or a race) finds nothing. */
export async function consumeOneTimeToken(
  db: Executor,
  token: string,
  now: Date,
): Promise<{ userId: string; purpose: OneTimePurpose } | null> {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ consumedAt: now })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, hashToken(token)),
        isNull(oneTimeTokens.consumedAt),
        gt(oneTimeTokens.expiresAt, now),
      ),
    )
    .returning({ userId: oneTimeTokens.userId, purpose: oneTimeTokens.purpose });
  return row ?? null;
}

/** Retires a user's unused links of one purpose (a newer one replaces them). */
export async function revokeOneTimeTokens(
  db: Executor,
  userId: string,
  purpose: OneTimePurpose,
  now: Date,
): Promise<void> {
  await db
    .update(oneTimeTokens)
    .set({ consumedAt: now })
    .where(
      and(
        eq(oneTimeTokens.userId, userId),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.consumedAt),
      ),
    );
}
