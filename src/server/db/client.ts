import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { applyFunctionFiles, readFunctionFiles } from './migrate-functions.ts';
import { applyParsersOnce } from './pglite-parsers.ts';
import * as schema from './schema.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Anything that can run a query: the database or an open transaction. */
export type Executor = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /**
   * Applies every committed migration, then the function files (`migrate-functions.ts`); safe
   * when several processes start at once.
   */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: a tarball of the data directory (tests start each file from one). */
  dumpDataDir(): Promise<Blob>;
  /**
   * Delivers every NOTIFY on `channel`, from any connection to this database. On PostgreSQL the
   * listening connection is re-opened when it drops, and `onResync` runs once it is back, since
   * notifications sent meanwhile are lost. Resolves to a function that stops listening.
   */
  listen(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
  /** PostgreSQL only (PGlite has one connection and no pool): the pool's state now. */
  poolStats?: () => PoolStats;
}

export interface PoolStats {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection because all `max` are busy. */
  waiting: number;
  max: number;
}

export interface NotificationHandlers {
  onMessage: (payload: string) => void;
  onResync: () => void;
  onError: (error: unknown) => void;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
/** Arbitrary constant that names "the migration lock" for pg_advisory_lock. */
export const MIGRATION_LOCK_KEY = 727_001;

export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  /** PGlite only: `memory://` keeps nothing on disk (tests). */
  inMemory?: boolean;
  /** PGlite only: start from a dump made by `dumpDataDir()`. */
  loadDataDir?: Blob;
  /** PGlite only: PostgreSQL already compiled, for processes that open many databases (tests). */
  pglite?: { pgliteWasmModule: WebAssembly.Module; fsBundle: Blob };
  poolSize?: number;
  /**
   * PostgreSQL itself when `databaseUrl` goes through a transaction pooler (PgBouncer), which
   * hands each transaction any server connection: the LISTEN connection and the migration lock
   * belong to one session, so they take this way. Unset, they use `databaseUrl`.
   */
  directUrl?: string;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl)
    return openPostgres(
      options.databaseUrl,
      options.directUrl ?? options.databaseUrl,
      options.poolSize ?? 20,
    );
  return openPglite(
    options.inMemory ? 'memory://' : path.resolve(options.dataDir, 'pglite'),
    options.loadDataDir,
    options.pglite,
  );
}

/**
 * Queries go through the pool on `url`; `sessionUrl` (the same, or PostgreSQL directly behind a
 * transaction pooler) serves what holds a session. Nothing on the pool may rely on one, which is
 * why there is no session-level SET and no named prepared statement (drizzle names none).
 */
function openPostgres(url: string, sessionUrl: string, max: number): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // The pool listens for errors only on idle clients. One checked out between two statements (a
  // transaction, the migration lock) whose server dies would emit 'error' to nobody and crash
  // the process; its next statement fails instead, and the pool drops it when it is released.
  pool.on('connect', ignoreConnectionLoss);
  const db = drizzleNodePg({ client: pool, schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    async migrate() {
      const files = await readFunctionFiles();
      // pg_advisory_lock belongs to the session that took it: lock, migrations and unlock run on
      // one connection of their own, and closing it frees the lock if the unlock could not run.
      const client = new pg.Client({ connectionString: sessionUrl });
      client.on('error', () => {});
      await client.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        await migrateNodePg(drizzleNodePg({ client, schema }), { migrationsFolder });
        await applyFunctionFiles((text, values) => client.query(text, values), files);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        await client.end().catch(() => {});
      }
    },
    close: () => pool.end(),
    dumpDataDir: () => Promise.reject(new Error('dumpDataDir is only available on PGlite')),
    listen: (channel, handlers) => listenOnPostgres(sessionUrl, channel, handlers),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max,
    }),
  };
}

/** The error still reaches whoever uses the client: its next query rejects. */
export function ignoreConnectionLoss(client: pg.PoolClient): void {
  client.on('error', () => {});
}

const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/** A connection of its own (a pooled one would be handed to queries): LISTEN holds it. */
async function listenOnPostgres(
  url: string,
  channel: string,
  handlers: NotificationHandlers,
): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retryMs = RECONNECT_FIRST_MS;
  let retryTimer: NodeJS.Timeout | null = null;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onMessage(message.payload ?? '');
    });
    const lost = (error?: unknown) => {
      if (client !== next) return;
      client = null;
      if (error) handlers.onError(error);
      next.end().catch(() => {});
      scheduleReconnect();
    };
    next.on('error', lost);
    next.on('end', () => lost());
    await next.connect();
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    client = next;
  }

  function scheduleReconnect(): void {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect().then(
        () => {
          retryMs = RECONNECT_FIRST_MS;
          handlers.onResync();
        },
        (error: unknown) => {
          handlers.onError(error);
          retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
          scheduleReconnect();
        },
      );
    }, retryMs);
    retryTimer.unref();
  }

  await connect();
  return async () => {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    const current = client;
    client = null;
    await current?.end().catch(() => {});
  };
}

async function openPglite(
  location: string,
  loadDataDir?: Blob,
  compiled?: { pgliteWasmModule: WebAssembly.Module; fsBundle: Blob },
): Promise<DatabaseHandle> {
  if (location !== 'memory://') await mkdir(location, { recursive: true });
  const client = await PGlite.create(location, {
    ...(loadDataDir ? { loadDataDir } : {}),
    ...compiled,
  });
  applyParsersOnce(client);
  const db = drizzlePglite({ client, schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    async migrate() {
      const files = await readFunctionFiles();
      await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
      // PGlite's query() takes one statement; exec() takes a whole file but no parameters.
      await applyFunctionFiles(async (text, values) => {
        if (values) return client.query(text, values);
        const results = await client.exec(text);
        return results.at(-1) ?? { rows: [] };
      }, files);
    },
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir('none'),
    // One process owns a PGlite database, so the only connection never drops.
    listen: async (channel, handlers) => {
      const unlisten = await client.listen(channel, handlers.onMessage);
      return () => unlisten();
    },
  };
}

export async function pingDatabase(db: Database): Promise<void> {
  await db.execute(sql`SELECT 1`);
}
