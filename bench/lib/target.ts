/**
 * Where a scenario's data lives. With DATABASE_URL the bench creates its own database
 * (`pluckers_bench`) on that server, re-creates it for every scenario and drops it at the end;
 * it never reads or writes the tables of the database named in the URL. Without DATABASE_URL
 * every scenario gets a fresh embedded PGlite data directory under the system temp directory.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../src/server/db/client.ts';
import { seedDatabase } from '../../src/server/seed/seed.ts';

export const BENCH_DATABASE = 'pluckers_bench';

export interface Slot {
  /** Environment for a server child process using this slot's database. */
  env: Record<string, string>;
  /** DATA_DIR of the slot (PGlite keeps its database there; uploads and secrets on both). */
  dataDir: string;
  /** Opens the slot's database in this process (PGlite: only while no server child runs). */
  open(): Promise<DatabaseHandle>;
}

export interface Target {
  kind: 'pglite' | 'postgres';
  /** Human-readable: which database served the figures. */
  describe(): Promise<string>;
  /** Makes sure no other bench uses the same databases for this run; throws when one does. */
  claim(): Promise<void>;
  /**
   * A fresh database for one scenario: migrated and seeded (reference data, no demo games), or
   * with `empty`, no tables at all (what a first start meets).
   */
  fresh(name: string, options?: { empty?: boolean }): Promise<Slot>;
  /** Removes everything the bench created. */
  cleanup(): Promise<void>;
}

async function tempDir(name: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `pluckers-bench-${name}-`));
}

/**
 * PGlite's first start runs initdb in WebAssembly, which takes seconds; the scenarios that need
 * a migrated database copy one prepared template directory instead (start-up measures the
 * real first start on an empty directory).
 */
export function pgliteTarget(): Target {
  const directories: string[] = [];
  let template: Promise<string> | undefined;
  const makeTemplate = async () => {
    const dataDir = await tempDir('template');
    directories.push(dataDir);
    const handle = await openDatabase({ databaseUrl: undefined, dataDir });
    try {
      await handle.migrate();
      await seedDatabase(handle.db, { demoGames: false });
    } finally {
      await handle.close();
    }
    return dataDir;
  };
  return {
    kind: 'pglite',
    describe: async () => 'PGlite (embedded PostgreSQL in WebAssembly), file-backed DATA_DIR',
    // Every run and scenario has directories of its own.
    claim: async () => {},
    async fresh(name, options = {}) {
      const dataDir = await tempDir(name);
      directories.push(dataDir);
      if (!options.empty) {
        template ??= makeTemplate();
        await cp(path.join(await template, 'pglite'), path.join(dataDir, 'pglite'), {
          recursive: true,
        });
      }
      return {
        env: { DATA_DIR: dataDir },
        dataDir,
        open: () => openDatabase({ databaseUrl: undefined, dataDir }),
      };
    },
    async cleanup() {
      await Promise.all(
        directories.map((directory) => rm(directory, { recursive: true, force: true })),
      );
    },
  };
}

/** The same server and credentials as `url`, another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export function postgresTarget(
  adminUrl: string,
  options: { keep?: boolean; database?: string } = {},
): Target {
  const database = options.database ?? BENCH_DATABASE;
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`bad database name ${database}`);
  const named = decodeURIComponent(new URL(adminUrl).pathname.replace(/^\//, ''));
  if (named === database) {
    throw new Error(
      `DATABASE_URL names ${database}, the database the bench drops and re-creates; ` +
        'point it at another database of the same server (e.g. /postgres).',
    );
  }
  const benchUrl = withDatabase(adminUrl, database);
  const directories: string[] = [];

  async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }
  const drop = () =>
    admin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));

  // Held for the whole run by a session of its own. Advisory locks belong to one database, so the
  // session sits in the server's maintenance database, which every bench run can reach whatever
  // database its URL names (and which CREATE DATABASE, unlike template1, does not mind).
  let lockHolder: pg.Client | undefined;
  async function claimServer(): Promise<void> {
    const client = new pg.Client({ connectionString: withDatabase(adminUrl, 'postgres') });
    try {
      await client.connect();
    } catch {
      await client.end().catch(() => {});
      throw new Error(
        'the bench needs the maintenance database "postgres" on that server to hold its lock',
      );
    }
    const result = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
      [`pluckers bench ${database}`],
    );
    if (!result.rows[0]?.locked) {
      await client.end();
      throw new Error(
        `another bench is running on this server with database ${database}: two runs at once ` +
          "would drop each other's database and skew each other's timings; wait for it to finish",
      );
    }
    lockHolder = client;
  }

  return {
    kind: 'postgres',
    async describe() {
      const version = await admin(async (client) => {
        const result = await client.query<{ server_version: string }>('SHOW server_version');
        return result.rows[0]?.server_version ?? '?';
      });
      const host = new URL(adminUrl);
      return `PostgreSQL ${version} at ${host.hostname}:${host.port || 5432}, database ${database} (created and dropped by the bench)`;
    },
    claim: claimServer,
    async fresh(name) {
      await drop();
      await admin((client) => client.query(`CREATE DATABASE ${database}`));
      const dataDir = await tempDir(name);
      directories.push(dataDir);
      return {
        env: { DATABASE_URL: benchUrl, DATA_DIR: dataDir },
        dataDir,
        open: () => openDatabase({ databaseUrl: benchUrl, dataDir, poolSize: 20 }),
      };
    },
    async cleanup() {
      if (!options.keep) await drop();
      await Promise.all(
        directories.map((directory) => rm(directory, { recursive: true, force: true })),
      );
      await lockHolder?.end();
      lockHolder = undefined;
    },
  };
}
