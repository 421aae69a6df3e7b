import { hostname } from 'node:os';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { jobs } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';

export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

/**
 * A claimed job is locked this long and the lock is renewed every JOB_HEARTBEAT_MS while its
 * handler runs: a worker that dies (kill -9, a lost machine) stops renewing, and another worker
 * takes the job over when the lock runs out, within JOB_LOCK_MS of the death.
 */
const JOB_LOCK_MS = 5_000;
const JOB_HEARTBEAT_MS = 1_500;
/** Which process holds a job's lock (recorded on the job, for operators). */
const WORKER_ID = `${hostname()}:${process.pid}`;
const MAX_BACKOFF_SECONDS = 600;

/** Enqueues work once per key: a second enqueue of the same key changes nothing. */
export async function enqueueJob(
  db: Executor,
  job: { kind: string; key: string; payload?: Record<string, unknown>; runAt?: Date },
): Promise<void> {
  await db
    .insert(jobs)
    .values({
      kind: job.kind,
      key: job.key,
      payload: job.payload ?? {},
      runAt: job.runAt ?? new Date(),
    })
    .onConflictDoNothing({ target: jobs.key });
}

/**
 * Claims one due job (SKIP LOCKED, so several workers never take the same one), runs it and
 * marks it done; a failure is recorded and retried later with backoff. A worker that dies
 * mid-job stops renewing its lock, and the job runs again elsewhere: handlers are idempotent.
 */
export async function runNextJob(
  db: Database,
  handlers: Record<string, JobHandler>,
  clock: Clock,
): Promise<boolean> {
  const now = clock.now();
  const claimed = await db.execute(sql`
    UPDATE jobs SET locked_until = ${lockUntil(now)}::timestamptz, locked_by = ${WORKER_ID},
      attempts = attempts + 1
    WHERE id = (
      SELECT id FROM jobs
      WHERE done_at IS NULL AND run_at <= ${now.toISOString()}::timestamptz
        AND (locked_until IS NULL OR locked_until < ${now.toISOString()}::timestamptz)
      ORDER BY run_at, id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, kind, payload, attempts`);
  const job = (
    claimed as unknown as {
      rows: Array<{
        id: number | string;
        kind: string;
        payload: Record<string, unknown>;
        attempts: number;
      }>;
    }
  ).rows[0];
  if (!job) return false;
  const id = Number(job.id);
  const handler = handlers[job.kind];
  const heartbeat = setInterval(() => {
    db.update(jobs)
      .set({ lockedUntil: new Date(lockUntil(clock.now())) })
      .where(and(eq(jobs.id, id), isNull(jobs.doneAt)))
      // A missed beat only lets another worker start the job too; handlers are idempotent.
      .catch(() => {});
  }, JOB_HEARTBEAT_MS);
  heartbeat.unref();
  try {
    if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
    await handler(job.payload);
    await db
      .update(jobs)
      .set({ doneAt: new Date(), lockedUntil: null, lockedBy: null, lastError: null })
      .where(eq(jobs.id, id));
  } catch (error) {
    const backoff = Math.min(MAX_BACKOFF_SECONDS, 2 ** Math.min(job.attempts, 10));
    await db
      .update(jobs)
      .set({
        lockedUntil: null,
        lockedBy: null,
        lastError: error instanceof Error ? error.message : String(error),
        // A handler that knows when to try again (a draw waiting for its beacon round) says so.
        runAt: retryAtOf(error) ?? new Date(now.getTime() + backoff * 1000),
      })
      .where(and(eq(jobs.id, id), isNull(jobs.doneAt)));
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
  return true;
}

function retryAtOf(error: unknown): Date | null {
  const retryAt = (error as { retryAt?: unknown } | null)?.retryAt;
  return retryAt instanceof Date ? retryAt : null;
}

function lockUntil(now: Date): string {
  return new Date(now.getTime() + JOB_LOCK_MS).toISOString();
}

/**
 * When the worker next has something to do: a job becoming due or its lock running out, a game
 * to open or close, a plan to renew. Null when nothing is scheduled at all.
 */
export async function nextWakeUp(db: Executor): Promise<Date | null> {
  const result = await db.execute(sql`
    SELECT least(
      (SELECT min(greatest(run_at, coalesce(locked_until, run_at))) FROM jobs WHERE done_at IS NULL),
      (SELECT min(starts_at) FROM games WHERE status = 'UPCOMING'),
      (SELECT min(ends_at) FROM games WHERE status = 'ONGOING'),
      (SELECT min(plan_expires_at) FROM users WHERE plan_expires_at IS NOT NULL)
    ) AS next`);
  const value = (result as unknown as { rows: Array<{ next: string | Date | null }> }).rows[0]
    ?.next;
  return value ? new Date(value) : null;
}
