import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { koboToNaira, nairaToKobo } from '../../../shared/money.ts';
import {
  LIMIT_COOLING_OFF_MS,
  LIMIT_KINDS,
  LIMIT_PERIODS,
  type LimitKind,
  type LimitPeriod,
  limitPeriod,
  limitRaisedMessage,
  limitReachedMessage,
  RESPONSIBLE_PLAY_MESSAGES,
} from '../../../shared/responsible-play.ts';
import type { PlayLimit, SetLimitBody } from '../../../shared/schemas/responsible-play.ts';
import type { Executor } from '../../db/client.ts';
import { gameEntries, payments, playLimits } from '../../db/schema.ts';
import { badRequest } from '../../errors.ts';

type LimitRow = typeof playLimits.$inferSelect;

/**
 * The limit in force at `now`: a raise or removal replaces `amount` once its cooling-off is
 * over. Read this way everywhere, so nothing has to run at the 24-hour mark for it to apply.
 */
export function effectiveAmount(row: LimitRow, now: Date): bigint | null {
  if (row.pendingFrom && row.pendingFrom <= now)
    return row.pendingRemoval ? null : row.pendingAmount;
  return row.amount;
}

const pendingOf = (row: LimitRow, now: Date) =>
  row.pendingFrom && row.pendingFrom > now
    ? { amount: row.pendingRemoval ? null : row.pendingAmount, from: row.pendingFrom }
    : null;

/**
 * What counts against a limit from `since`: deposits are completed and still-pending top-ups
 * (a player cannot open many checkouts at once to overshoot), spend is entry fees not refunded.
 */
async function usedSince(
  db: Executor,
  userId: string,
  kind: LimitKind,
  since: Date,
  until: Date,
): Promise<bigint> {
  if (kind === 'deposit') {
    const [row] = await db
      .select({ total: sql<string>`coalesce(sum(${payments.amount}), 0)::text` })
      .from(payments)
      .where(
        and(
          eq(payments.userId, userId),
          inArray(payments.status, ['PENDING', 'SUCCESS']),
          gte(payments.createdAt, since),
          lt(payments.createdAt, until),
        ),
      );
    return BigInt(row?.total ?? '0');
  }
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${gameEntries.amountPaid}), 0)::text` })
    .from(gameEntries)
    .where(
      and(
        eq(gameEntries.userId, userId),
        eq(gameEntries.refunded, false),
        gte(gameEntries.createdAt, since),
        lt(gameEntries.createdAt, until),
      ),
    );
  return BigInt(row?.total ?? '0');
}

/** Every limit of a player (all six, set or not) with what is used in its current period. */
export async function readLimits(db: Executor, userId: string, now: Date): Promise<PlayLimit[]> {
  const rows = await db.select().from(playLimits).where(eq(playLimits.userId, userId));
  const byKey = new Map(rows.map((row) => [`${row.kind}:${row.period}`, row]));
  const result: PlayLimit[] = [];
  for (const kind of LIMIT_KINDS) {
    for (const period of LIMIT_PERIODS) {
      const row = byKey.get(`${kind}:${period}`);
      const { start, end } = limitPeriod(period, now);
      const used = await usedSince(db, userId, kind, start, end);
      const amount = row ? effectiveAmount(row, now) : null;
      const pending = row ? pendingOf(row, now) : null;
      result.push({
        kind,
        period,
        amount: amount === null ? null : koboToNaira(amount),
        used: koboToNaira(used),
        remaining: amount === null ? null : koboToNaira(amount > used ? amount - used : 0n),
        periodStart: start.toISOString(),
        periodEnd: end.toISOString(),
        pending: pending
          ? {
              amount: pending.amount === null ? null : koboToNaira(pending.amount),
              from: pending.from.toISOString(),
            }
          : null,
      });
    }
  }
  return result;
}

/**
 * Refuses `amount` more of `kind` when it would take any of the player's limits past its
 * amount in the current period. Call it inside the transaction that records the money, after
 * the player's row is locked (`lockLiveAccount`): the count and the insert are then one step
 * per player, so concurrent requests cannot each see room for themselves.
 */
export async function assertWithinLimits(
  tx: Executor,
  userId: string,
  kind: LimitKind,
  amount: bigint,
  now: Date,
): Promise<void> {
  const rows = await tx
    .select()
    .from(playLimits)
    .where(and(eq(playLimits.userId, userId), eq(playLimits.kind, kind)));
  let tightest: { period: LimitPeriod; limit: bigint; remaining: bigint; end: Date } | null = null;
  for (const row of rows) {
    const limit = effectiveAmount(row, now);
    if (limit === null) continue;
    const { start, end } = limitPeriod(row.period, now);
    const used = await usedSince(tx, userId, kind, start, end);
    const remaining = limit > used ? limit - used : 0n;
    if (amount > remaining && (!tightest || remaining < tightest.remaining))
      tightest = { period: row.period, limit, remaining, end };
  }
  if (!tightest) return;
  throw badRequest(
    limitReachedMessage({
      kind,
      period: tightest.period,
      limitNaira: koboToNaira(tightest.limit),
      // Whole naira the player can still use, never rounded up past the limit.
      remainingNaira: Math.floor(koboToNaira(tightest.remaining)),
      resetsAt: tightest.end,
    }),
  );
}

/**
 * Sets one limit. Lower (or a first limit) applies at once and drops any waiting raise; higher
 * or removed waits 24 hours while the current limit stays; the same amount cancels a waiting
 * change. The player's row must already be locked.
 */
export async function setLimit(
  tx: Executor,
  userId: string,
  body: SetLimitBody,
  now: Date,
): Promise<string> {
  const [row] = await tx
    .select()
    .from(playLimits)
    .where(
      and(
        eq(playLimits.userId, userId),
        eq(playLimits.kind, body.kind),
        eq(playLimits.period, body.period),
      ),
    );
  const current = row ? effectiveAmount(row, now) : null;
  const wanted = body.amount === null ? null : nairaToKobo(body.amount);
  const key = { userId, kind: body.kind, period: body.period };
  const write = (values: Omit<typeof playLimits.$inferInsert, 'userId' | 'kind' | 'period'>) =>
    tx
      .insert(playLimits)
      .values({ ...key, ...values, updatedAt: now })
      .onConflictDoUpdate({
        target: [playLimits.userId, playLimits.kind, playLimits.period],
        set: { ...values, updatedAt: now },
      });
  const noPending = { pendingAmount: null, pendingRemoval: false, pendingFrom: null };

  const stricter = wanted !== null && (current === null || wanted < current);
  if (stricter) {
    await write({ amount: wanted, ...noPending });
    return RESPONSIBLE_PLAY_MESSAGES.limitLowered;
  }
  if (wanted === current) {
    await write({ amount: current, ...noPending });
    return RESPONSIBLE_PLAY_MESSAGES.limitUnchanged;
  }
  const from = new Date(now.getTime() + LIMIT_COOLING_OFF_MS);
  await write({
    amount: current,
    pendingAmount: wanted,
    pendingRemoval: wanted === null,
    pendingFrom: from,
  });
  return limitRaisedMessage(from);
}
