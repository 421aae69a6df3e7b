import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { jobs } from '../db/schema.ts';

export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

const LOCK_SECONDS = 120;
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
 * mid-job leaves a lock that expires, and the job runs again: handlers are idempotent.
 */
export async function runNextJob(
  db: Database,
  handlers: Record<string, JobHandler>,
  now: Date,
): Promise<boolean> {
  const claimed = await db.execute(sql`
    UPDATE jobs SET locked_until = ${now.toISOString()}::timestamptz + make_interval(secs => ${LOCK_SECONDS}),
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
  try {
    if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
    await handler(job.payload);
    await db
      .update(jobs)
      .set({ doneAt: new Date(), lockedUntil: null, lastError: null })
      .where(eq(jobs.id, id));
  } catch (error) {
    const backoff = Math.min(MAX_BACKOFF_SECONDS, 2 ** Math.min(job.attempts, 10));
    await db
      .update(jobs)
      .set({
        lockedUntil: null,
        lastError: error instanceof Error ? error.message : String(error),
        runAt: new Date(now.getTime() + backoff * 1000),
      })
      .where(and(eq(jobs.id, id), isNull(jobs.doneAt)));
    throw error;
  }
  return true;
}
