import { and, inArray, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { authThrottles } from '../../db/schema.ts';
import { AppError, ErrorCode } from '../../errors.ts';
import { describeWait } from '../../lib/describe-wait.ts';

/**
 * How failures of one key (a guessable secret tried by someone) turn into waits: the first
 * `freeFailures` in a window cost nothing, each one after blocks the key for twice as long as
 * the one before (`firstDelayMs`, doubling up to `maxDelayMs`). Honest typos never wait; a
 * guesser's rate falls off exponentially.
 */
export interface ThrottlePolicy {
  freeFailures: number;
  windowMs: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

export function delayAfter(failures: number, policy: ThrottlePolicy): number {
  const excess = failures - policy.freeFailures;
  if (excess <= 0) return 0;
  // 2 ** 30 already dwarfs any sensible cap; bounding the exponent keeps the number finite.
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** Math.min(excess - 1, 30));
}

export function throttledError(waitMs: number, message = 'Too many attempts.'): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError(
    ErrorCode.TooManyRequests,
    `${message} Please try again in ${describeWait(seconds)}.`,
    { retryAfterSeconds: seconds },
  );
}

/** The longest block still running on any of `keys`, in ms (0 when none is blocked). */
export async function remainingBlockMs(db: Executor, keys: string[], now: Date): Promise<number> {
  if (keys.length === 0) return 0;
  const rows = await db
    .select({ blockedUntil: authThrottles.blockedUntil })
    .from(authThrottles)
    .where(inArray(authThrottles.key, keys));
  let longest = 0;
  for (const { blockedUntil } of rows)
    if (blockedUntil) longest = Math.max(longest, blockedUntil.getTime() - now.getTime());
  return longest;
}

/** Refuses with 429 (and Retry-After) while any of `keys` is blocked. */
export async function assertNotThrottled(
  db: Executor,
  keys: string[],
  now: Date,
  message?: string,
): Promise<void> {
  const waitMs = await remainingBlockMs(db, keys, now);
  if (waitMs > 0) throw throttledError(waitMs, message);
}

/**
 * Counts one failure of `key` in one statement (instances and concurrent requests all add to
 * the same row) and blocks the key as the policy says. Returns the failures in the window.
 */
export async function recordFailure(
  db: Executor,
  key: string,
  policy: ThrottlePolicy,
  now: Date,
): Promise<number> {
  const nowIso = now.toISOString();
  const windowEnd = new Date(now.getTime() + policy.windowMs).toISOString();
  const [row] = await db
    .insert(authThrottles)
    .values({ key, failures: 1, windowEndsAt: new Date(windowEnd) })
    .onConflictDoUpdate({
      target: authThrottles.key,
      set: {
        failures: sql`CASE WHEN ${authThrottles.windowEndsAt} <= ${nowIso}::timestamptz THEN 1 ELSE ${authThrottles.failures} + 1 END`,
        windowEndsAt: sql`CASE WHEN ${authThrottles.windowEndsAt} <= ${nowIso}::timestamptz THEN ${windowEnd}::timestamptz ELSE ${authThrottles.windowEndsAt} END`,
      },
    })
    .returning({ failures: authThrottles.failures });
  const failures = row?.failures ?? 1;
  const delayMs = delayAfter(failures, policy);
  if (delayMs > 0) {
    await db
      .update(authThrottles)
      .set({ blockedUntil: new Date(now.getTime() + delayMs) })
      .where(sql`${authThrottles.key} = ${key}`);
  }
  return failures;
}

/** After a success: the owner proved the secret, so their own counters start again. */
export async function clearFailures(db: Executor, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(authThrottles).where(inArray(authThrottles.key, keys));
}

/** Drops counters whose window and block are both over (run by the worker now and then). */
export async function sweepThrottles(db: Executor, now: Date): Promise<number> {
  const removed = await db
    .delete(authThrottles)
    .where(
      and(
        lte(authThrottles.windowEndsAt, now),
        or(sql`${authThrottles.blockedUntil} IS NULL`, lte(authThrottles.blockedUntil, now)),
      ),
    )
    .returning({ key: authThrottles.key });
  return removed.length;
}
