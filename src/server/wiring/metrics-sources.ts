import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';

/**
 * What the on-scrape gauges of `/metrics` read from the database. These describe the whole
 * cluster (every instance reads the same rows), unlike the counters, which count what one
 * process did.
 */

export interface JobQueueStats {
  /** Waiting for a worker: due and not locked by one. */
  due: number;
  /** Locked by a worker that is running it (or died less than a lock's length ago). */
  running: number;
  /** Not due yet: a draw's retry after a failure, or work queued for later. */
  scheduled: number;
  /** Not done and its last attempt failed. */
  retrying: number;
  /** How long the longest-waiting due job has been due; 0 when none is. */
  oldestDueSeconds: number;
}

/**
 * One pass over the unfinished jobs (the partial index `jobs_due_idx` holds only those), in app
 * time, as the worker judges what is due (`runNextJob`).
 */
export async function jobQueueStats(db: Executor, now: Date): Promise<JobQueueStats> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const locked = sql`(locked_until IS NOT NULL AND locked_until >= ${at})`;
  const [row] = await rowsOf<{
    due: number;
    running: number;
    scheduled: number;
    retrying: number;
    oldest_due_seconds: number | null;
  }>(
    db,
    sql`SELECT
      count(*) FILTER (WHERE NOT ${locked} AND run_at <= ${at})::int AS due,
      count(*) FILTER (WHERE ${locked})::int AS running,
      count(*) FILTER (WHERE NOT ${locked} AND run_at > ${at})::int AS scheduled,
      count(*) FILTER (WHERE last_error IS NOT NULL)::int AS retrying,
      extract(epoch FROM ${at} - min(run_at) FILTER (WHERE NOT ${locked} AND run_at <= ${at}))::float8
        AS oldest_due_seconds
    FROM jobs WHERE done_at IS NULL`,
  );
  return {
    due: row?.due ?? 0,
    running: row?.running ?? 0,
    scheduled: row?.scheduled ?? 0,
    retrying: row?.retrying ?? 0,
    oldestDueSeconds: Math.max(0, row?.oldest_due_seconds ?? 0),
  };
}

export interface MoneyTotals {
  payments: Array<{ method: string; mode: string; status: string; count: number }>;
  withdrawals: Array<{ status: string; count: number }>;
}

/**
 * Top-ups by method, mode and status and withdrawals by status, as the database has them. Read
 * here rather than counted where they settle: a payment settles in a webhook, a callback, the
 * sandbox page, the reconciliation job or an operator's action, on any instance, and only the
 * rows know which of those calls actually changed it.
 */
export async function moneyTotals(db: Executor): Promise<MoneyTotals> {
  const [payments, withdrawals] = await Promise.all([
    rowsOf<{ method: string; mode: string; status: string; count: number }>(
      db,
      sql`SELECT method, mode, status, count(*)::int AS count FROM payments
        GROUP BY method, mode, status`,
    ),
    rowsOf<{ status: string; count: number }>(
      db,
      sql`SELECT status, count(*)::int AS count FROM withdrawals GROUP BY status`,
    ),
  ]);
  return { payments, withdrawals };
}
