import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, ignoreConnectionLoss } from '../../db/client.ts';

/** A probe answers within this, whatever the database does: balancers time checks out at ~2 s. */
export const PROBE_TIMEOUT_MS = 1_000;

export type DatabaseState = 'ok' | 'unreachable' | 'timeout';
export type MigrationState = 'applied' | 'pending' | 'unknown';

export interface ProbeResult {
  database: DatabaseState;
  migrations: MigrationState;
}

export interface ReadinessProbe {
  check(): Promise<ProbeResult>;
  close(): Promise<void>;
}

/**
 * The newest migration this code ships, as drizzle's migrator records it (`created_at` is the
 * journal's `when`): a database whose newest record is older has not been migrated for this code.
 */
export function latestMigrationMillis(): number {
  const journal = JSON.parse(
    readFileSync(new URL('../../db/migrations/meta/_journal.json', import.meta.url), 'utf8'),
  ) as { entries: Array<{ when: number }> };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

// One statement is both the round trip and the migration check.
const LAST_MIGRATION_SQL =
  'SELECT coalesce(max(created_at), 0)::text AS last FROM drizzle.__drizzle_migrations';

class ProbeTimeout extends Error {}

/** SQLSTATE of a query error, drizzle's wrapper or the driver's own. */
function sqlState(error: unknown): string | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

const UNDEFINED_TABLE = '42P01';
const INVALID_SCHEMA = '3F000';

async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function judge(lastApplied: () => Promise<string>, expected: number, timeoutMs: number) {
  try {
    const last = Number(await withDeadline(lastApplied(), timeoutMs));
    return {
      database: 'ok',
      migrations: last >= expected ? 'applied' : 'pending',
    } satisfies ProbeResult;
  } catch (error) {
    if (error instanceof ProbeTimeout)
      return { database: 'timeout', migrations: 'unknown' } satisfies ProbeResult;
    const state = sqlState(error);
    // The server answered, so it is reachable: it has just never been migrated.
    if (state === UNDEFINED_TABLE || state === INVALID_SCHEMA)
      return { database: 'ok', migrations: 'pending' } satisfies ProbeResult;
    return { database: 'unreachable', migrations: 'unknown' } satisfies ProbeResult;
  }
}

/**
 * On PostgreSQL the probe has a connection of its own. Through the app's pool it would queue
 * behind every request waiting for a connection, and under load a balancer would take every
 * instance out at once (seconds behind queued plays in a full pool) although the database
 * answers fine. One more connection per instance buys an honest answer.
 */
export function dedicatedProbe(
  databaseUrl: string,
  expected: number,
  timeoutMs = PROBE_TIMEOUT_MS,
): ReadinessProbe {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 1,
    // Longer than the probe's own deadline, which decides (and says "timeout"); this one only
    // frees the pool's one slot from a connection attempt that never answers.
    connectionTimeoutMillis: timeoutMs * 2,
    statement_timeout: timeoutMs,
    application_name: 'pluckers-health',
    keepAlive: true,
    allowExitOnIdle: true,
  });
  // A dropped idle connection is replaced at the next check; it must not crash the process.
  pool.on('error', () => {});
  pool.on('connect', ignoreConnectionLoss);
  const lastApplied = async () => {
    const client = await pool.connect();
    try {
      const result = await withDeadline(
        client.query<{ last: string }>(LAST_MIGRATION_SQL),
        timeoutMs,
      );
      client.release();
      return result.rows[0]?.last ?? '0';
    } catch (error) {
      // A connection that timed out or failed is not trusted with the next check.
      client.release(true);
      throw error;
    }
  };
  return {
    check: () => judge(lastApplied, expected, timeoutMs),
    close: () => pool.end(),
  };
}

/** PGlite (one in-process connection), or a database handed in without its URL (tests). */
export function sharedProbe(
  db: Database,
  expected: number,
  timeoutMs = PROBE_TIMEOUT_MS,
): ReadinessProbe {
  const lastApplied = async () => {
    const result = await db.execute(sql.raw(LAST_MIGRATION_SQL));
    return (result as unknown as { rows: Array<{ last: string }> }).rows[0]?.last ?? '0';
  };
  return {
    check: () => judge(lastApplied, expected, timeoutMs),
    close: async () => {},
  };
}
