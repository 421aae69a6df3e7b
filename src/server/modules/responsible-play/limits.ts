import { and, eq, gt, gte, lt, or, sql } from 'drizzle-orm';
import { koboToNaira, nairaToKobo } from '../../../shared/money.ts';
import {
  CHECKOUT_COUNTS_MS,
  LIMIT_COOLING_OFF_MS,
  LIMIT_KINDS,
  LIMIT_PERIODS,
  type LimitKind,
  type LimitPeriod,
  limitName,
  limitPeriod,
  limitRaisedMessage,
  limitReachedMessage,
  RESPONSIBLE_PLAY_MESSAGES,
} from '../../../shared/responsible-play.ts';
import type { PlayLimit, SetLimitBody } from '../../../shared/schemas/responsible-play.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { payments, playLimits } from '../../db/schema.ts';
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
 * What counts against a limit in the period [start, end) that `now` falls in.
 *
 * Deposits: the money that landed in the wallet in the period (successful top-ups by the time
 * they settled), plus checkouts opened in the last `CHECKOUT_COUNTS_MS` and not yet answered,
 * so that opening many at once cannot overshoot. A checkout past that stops counting; if it is
 * paid later anyway, the money is checked against the period it lands in when it does
 * (`landedOnly`: the credit itself counts nothing not yet landed).
 * Spend: entry fees not refunded, plan subscriptions and renewals, by when they were charged.
 */
async function usedIn(
  db: Executor,
  userId: string,
  kind: LimitKind,
  { start, end }: { start: Date; end: Date },
  now: Date,
  landedOnly = false,
): Promise<bigint> {
  if (kind === 'deposit') {
    const landed = and(
      eq(payments.status, 'SUCCESS'),
      gte(payments.settledAt, start),
      lt(payments.settledAt, end),
    );
    const open = and(
      eq(payments.status, 'PENDING'),
      gt(payments.createdAt, new Date(now.getTime() - CHECKOUT_COUNTS_MS)),
    );
    const [row] = await db
      .select({ total: sql<string>`coalesce(sum(${payments.amount}), 0)::text` })
      .from(payments)
      .where(and(eq(payments.userId, userId), landedOnly ? landed : or(landed, open)));
    return BigInt(row?.total ?? '0');
  }
  // The rule plays are charged by too, so it is PostgreSQL's (pluckers_spend_used).
  const [row] = await rowsOf<{ used: string }>(
    db,
    sql`SELECT pluckers_spend_used(${userId}::uuid, ${start.toISOString()}::timestamptz,
      ${end.toISOString()}::timestamptz)::text AS used`,
  );
  return BigInt(row?.used ?? '0');
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
      const used = await usedIn(db, userId, kind, { start, end }, now);
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

/** The tightest of a player's limits that `amount` more of `kind` would pass, or null. */
export interface LimitBreach {
  kind: LimitKind;
  period: LimitPeriod;
  limit: bigint;
  remaining: bigint;
  end: Date;
}

/**
 * Whether `amount` more of `kind` would take any of the player's limits past its amount in the
 * current period; the tightest such limit, or null. Call it inside the transaction that records
 * the money, after the player's row is locked: the count and the write are then one step per
 * player, so concurrent requests cannot each see room for themselves. `landedOnly` counts only
 * money that landed, for deposits: a payment being credited is checked against what is in.
 */
export async function limitBreach(
  tx: Executor,
  userId: string,
  kind: LimitKind,
  amount: bigint,
  now: Date,
  options: { landedOnly?: boolean } = {},
): Promise<LimitBreach | null> {
  if (kind === 'spend') {
    // The same rule as an entry fee's, in pluckers_play: one place for it.
    const [row] = await rowsOf<{
      period: LimitPeriod;
      amount: string | number;
      remaining: string | number;
      period_end: string | Date;
    }>(
      tx,
      sql`SELECT * FROM pluckers_spend_breach(${userId}::uuid, ${amount}::bigint,
        ${now.toISOString()}::timestamptz)`,
    );
    if (!row) return null;
    return {
      kind,
      period: row.period,
      limit: BigInt(row.amount),
      remaining: BigInt(row.remaining),
      end: new Date(row.period_end),
    };
  }
  const rows = await tx
    .select()
    .from(playLimits)
    .where(and(eq(playLimits.userId, userId), eq(playLimits.kind, kind)));
  let tightest: LimitBreach | null = null;
  for (const row of rows) {
    const limit = effectiveAmount(row, now);
    if (limit === null) continue;
    const period = limitPeriod(row.period, now);
    const used = await usedIn(tx, userId, kind, period, now, options.landedOnly);
    const remaining = limit > used ? limit - used : 0n;
    if (amount > remaining && (!tightest || remaining < tightest.remaining))
      tightest = { kind, period: row.period, limit, remaining, end: period.end };
  }
  return tightest;
}

/** "daily deposit limit of ₦1,000", for the messages about a breach. */
export const breachedLimitName = (breach: LimitBreach) =>
  limitName(breach.kind, breach.period, koboToNaira(breach.limit));

/** The refusal of a top-up, entry fee or plan past a limit, as the player reads it. */
export function limitBreachMessage(breach: LimitBreach, charge?: 'entry fee' | 'plan'): string {
  return limitReachedMessage({
    kind: breach.kind,
    period: breach.period,
    limitNaira: koboToNaira(breach.limit),
    // Whole naira the player can still use, never rounded up past the limit.
    remainingNaira: Math.floor(koboToNaira(breach.remaining)),
    resetsAt: breach.end,
    charge,
  });
}

/** Refuses (400) `amount` more of `kind` past a limit; see `limitBreach` for where to call it. */
export async function assertWithinLimits(
  tx: Executor,
  userId: string,
  kind: LimitKind,
  amount: bigint,
  now: Date,
  charge?: 'entry fee' | 'plan',
): Promise<void> {
  const breach = await limitBreach(tx, userId, kind, amount, now);
  if (breach) throw badRequest(limitBreachMessage(breach, charge));
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
