import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import {
  ACCOUNT_PAUSED_MESSAGE,
  EXCLUSION_DURATIONS,
  type ExclusionDuration,
  exclusionEnd,
  exclusionMessage,
  exclusionShorterMessage,
  exclusionStartedMessage,
  provesOwner,
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
  which: 'any' | 'shown' = 'any',
): Promise<ExclusionRow | null> {
  const rows = await db
    .select()
    .from(playExclusions)
    .where(running(userId, now))
    .orderBy(desc(playExclusions.endsAt));
  return (which === 'any' ? rows[0] : rows.find(isShownToPlayer)) ?? null;
}

/** A bound break is the account's own to see only when the account proved the key it shares. */
export const isShownToPlayer = (row: ExclusionRow) =>
  row.boundFrom === null || provesOwner(row.boundBy ?? []);

/**
 * Refuses money in and play (top-ups, plays, subscriptions) while a break of the player's runs,
 * on this account or another of theirs (`bindPerson`, called before the transaction so that
 * the binding outlives the refusal), saying until when, or, bound by a key the account has not
 * proven, only that it is paused. Inside the transaction, after the player's row is locked: a
 * break that starts while a request waits for the lock still stops it.
 */
export async function assertNotExcluded(db: Executor, userId: string, now: Date): Promise<void> {
  const exclusion = await activeExclusion(db, userId, now);
  if (!exclusion) return;
  throw forbidden(
    isShownToPlayer(exclusion)
      ? exclusionMessage(exclusion.kind, exclusion.endsAt)
      : ACCOUNT_PAUSED_MESSAGE,
    ErrorCode.PlayPaused,
  );
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
  const current = await activeExclusion(tx, userId, now, 'shown');
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
 * An operator ends every break running on a player's account, with the reason kept on the rows
 * and in the audit log; the player is told. The copies those breaks bound to the player's other
 * accounts end with them (one person, one break); a copy lifted on its own stays lifted.
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
  const lifted = { liftedAt: input.now, liftedBy: input.adminId, liftedReason: input.reason };
  const after = await tx
    .update(playExclusions)
    .set(lifted)
    .where(running(input.userId, input.now))
    .returning();
  const ownIds = after.filter((row) => row.boundFrom === null).map((row) => row.id);
  const copies =
    ownIds.length === 0
      ? []
      : await tx
          .update(playExclusions)
          .set(lifted)
          .where(and(inArray(playExclusions.boundFrom, ownIds), isNull(playExclusions.liftedAt)))
          .returning();
  await recordAudit(tx, {
    adminId: input.adminId,
    action: 'user.exclusion.lift',
    targetType: 'user',
    targetId: input.userId,
    before: before.map(toApiExclusion),
    after: {
      exclusions: after.map(toApiExclusion),
      boundCopies: copies.map((row) => ({ userId: row.userId, ...toApiExclusion(row) })),
      reason: input.reason,
    },
  });
  await notify(
    tx,
    input.userId,
    'Your break was ended by our team',
    'The Pluckers team ended your break early. Your limits still apply, and you can start a new break at any time on the Responsible play page.',
  );
}
