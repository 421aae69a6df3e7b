import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import {
  EXCLUSION_DURATIONS,
  type ExclusionDuration,
  exclusionEnd,
  exclusionMessage,
  exclusionShorterMessage,
  exclusionStartedMessage,
  RESPONSIBLE_PLAY_MESSAGES,
} from '../../../shared/responsible-play.ts';
import type { PlayExclusion } from '../../../shared/schemas/responsible-play.ts';
import type { Executor } from '../../db/client.ts';
import { playExclusions, users } from '../../db/schema.ts';
import { conflict, ErrorCode, forbidden, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record.ts';
import { notify } from '../notifications/service.ts';

type ExclusionRow = typeof playExclusions.$inferSelect;

export const toApiExclusion = (row: ExclusionRow): PlayExclusion => ({
  id: row.id,
  kind: row.kind,
  startsAt: row.startsAt.toISOString(),
  endsAt: row.endsAt.toISOString(),
  liftedAt: row.liftedAt?.toISOString() ?? null,
  liftedReason: row.liftedReason,
});

const running = (userId: string, now: Date) =>
  and(
    eq(playExclusions.userId, userId),
    isNull(playExclusions.liftedAt),
    sql`${playExclusions.startsAt} <= ${now.toISOString()}::timestamptz`,
    gt(playExclusions.endsAt, now),
  );

/** The time-out or self-exclusion running at `now` (the one ending last), if any. */
export async function activeExclusion(
  db: Executor,
  userId: string,
  now: Date,
): Promise<ExclusionRow | null> {
  const [row] = await db
    .select()
    .from(playExclusions)
    .where(running(userId, now))
    .orderBy(desc(playExclusions.endsAt))
    .limit(1);
  return row ?? null;
}

/**
 * Refuses money in and play (top-ups, plays, subscriptions) while a break runs, saying until
 * when. Inside the transaction, after the player's row is locked: a break that starts while
 * a request waits for the lock still stops it.
 */
export async function assertNotExcluded(db: Executor, userId: string, now: Date): Promise<void> {
  const exclusion = await activeExclusion(db, userId, now);
  if (exclusion)
    throw forbidden(exclusionMessage(exclusion.kind, exclusion.endsAt), ErrorCode.PlayPaused);
}

/**
 * Starts a time-out or self-exclusion now. One already running can only be made longer: a
 * shorter one would add nothing, and nothing here ever shortens or ends a break (only an
 * operator can, with a reason). The player's row must already be locked.
 */
export async function startExclusion(
  tx: Executor,
  userId: string,
  duration: ExclusionDuration,
  now: Date,
): Promise<{ exclusion: PlayExclusion; message: string }> {
  const endsAt = exclusionEnd(now, duration);
  const current = await activeExclusion(tx, userId, now);
  if (current && current.endsAt >= endsAt) throw conflict(exclusionShorterMessage(current.endsAt));
  const { kind } = EXCLUSION_DURATIONS[duration];
  const [row] = await tx
    .insert(playExclusions)
    .values({ userId, kind, startsAt: now, endsAt })
    .returning();
  if (!row) throw new Error('exclusion insert returned nothing');
  await notify(
    tx,
    userId,
    kind === 'timeout' ? 'Your break has started' : 'Your self-exclusion has started',
    exclusionMessage(kind, endsAt),
  );
  return { exclusion: toApiExclusion(row), message: exclusionStartedMessage(kind, endsAt) };
}

/**
 * An operator ends every break running for a player, with the reason kept on the rows and in
 * the audit log. The player is told.
 */
export async function liftExclusions(
  tx: Executor,
  input: { adminId: string; userId: string; reason: string; now: Date },
): Promise<void> {
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, input.userId))
    .for('update');
  if (!user) throw notFound('User not found');
  const before = await tx.select().from(playExclusions).where(running(input.userId, input.now));
  if (before.length === 0) throw conflict(RESPONSIBLE_PLAY_MESSAGES.noActiveExclusion);
  const after = await tx
    .update(playExclusions)
    .set({ liftedAt: input.now, liftedBy: input.adminId, liftedReason: input.reason })
    .where(running(input.userId, input.now))
    .returning();
  await recordAudit(tx, {
    adminId: input.adminId,
    action: 'user.exclusion.lift',
    targetType: 'user',
    targetId: input.userId,
    before: before.map(toApiExclusion),
    after: { exclusions: after.map(toApiExclusion), reason: input.reason },
  });
  await notify(
    tx,
    input.userId,
    'Your break was ended by our team',
    'The Pluckers team ended your break early. Your limits still apply, and you can start a new break at any time on the Responsible play page.',
  );
}
