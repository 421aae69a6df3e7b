/**
 * PostgreSQL's own yardstick next to the write path: pgbench's built-in TPC-B-like transaction
 * (BEGIN; UPDATE an account; SELECT its balance; UPDATE a teller; UPDATE a branch; INSERT a
 * history row; END) on the same server, in a database of its own (`pluckers_pgbench`, created,
 * initialised and dropped here), so the bench's database is never touched.
 */
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { withDatabase } from './target.ts';

const run = promisify(execFile);
export const PGBENCH_DATABASE = 'pluckers_pgbench';

export async function findPgbench(): Promise<string | null> {
  const candidates = [process.env.PGBENCH, '/usr/bin/pgbench'].filter(
    (candidate): candidate is string => Boolean(candidate),
  );
  for (const candidate of candidates) {
    try {
      await access(candidate);
      return candidate;
    } catch {
      // Try the next one.
    }
  }
  return null;
}

export interface Pgbench {
  /** Runs the transaction with `clients` connections for `seconds`; transactions per second. */
  run(clients: number, seconds: number): Promise<{ tps: number; transactions: number }>;
  drop(): Promise<void>;
}

async function admin(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Creates and initialises the pgbench database at scale `clients` (one branch per client, as
 * pgbench's documentation advises, so clients do not all queue on one branch row).
 */
export async function preparePgbench(
  binary: string,
  adminUrl: string,
  clients: number,
): Promise<Pgbench> {
  const url = new URL(withDatabase(adminUrl, PGBENCH_DATABASE));
  const connection = [
    '-h',
    url.hostname,
    '-p',
    url.port || '5432',
    ...(url.username ? ['-U', decodeURIComponent(url.username)] : []),
  ];
  const env = {
    PATH: process.env.PATH,
    ...(url.password ? { PGPASSWORD: decodeURIComponent(url.password) } : {}),
  };
  const drop = () => admin(adminUrl, `DROP DATABASE IF EXISTS ${PGBENCH_DATABASE} WITH (FORCE)`);
  await drop();
  await admin(adminUrl, `CREATE DATABASE ${PGBENCH_DATABASE}`);
  await run(binary, ['-i', '-q', '-s', String(clients), ...connection, PGBENCH_DATABASE], {
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
  return {
    async run(clientCount, seconds) {
      const { stdout } = await run(
        binary,
        [
          '-c',
          String(clientCount),
          '-j',
          '2',
          '-T',
          String(seconds),
          ...connection,
          PGBENCH_DATABASE,
        ],
        { env, maxBuffer: 16 * 1024 * 1024 },
      );
      const tps = /tps = ([\d.]+)/.exec(stdout)?.[1];
      const transactions = /number of transactions actually processed: (\d+)/.exec(stdout)?.[1];
      if (!tps) throw new Error(`pgbench printed no tps:\n${stdout}`);
      return { tps: Number(tps), transactions: Number(transactions ?? 0) };
    },
    drop,
  };
}
