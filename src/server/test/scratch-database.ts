import pg from 'pg';
import { inject, onTestFinished } from 'vitest';
import { uniqueSuffix } from './factories.ts';

/** The run's PostgreSQL test database URL; for files that only run against PostgreSQL. */
export function requireTestDatabaseUrl(): string {
  const url = inject('testDatabaseUrl');
  if (!url) throw new Error('this file runs only against PostgreSQL (TEST_DATABASE_URL)');
  return url;
}

/** The same server's maintenance database, from which databases are created and dropped. */
function maintenanceUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

async function onMaintenance<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: maintenanceUrl(databaseUrl) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database on the test server (for what the shared test database cannot show: a
 * first start, a restore), dropped when the test finishes, connections and all.
 */
export async function createScratchDatabase(purpose: string): Promise<string> {
  const serverUrl = requireTestDatabaseUrl();
  const name = `pluckers_${purpose}_${uniqueSuffix()}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  await onMaintenance(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  onTestFinished(async () => {
    await onMaintenance(serverUrl, (client) =>
      client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
    );
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Whether a database of that name exists on the test server. */
export async function databaseExists(databaseUrl: string): Promise<boolean> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const result = await onMaintenance(databaseUrl, (client) =>
    client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]),
  );
  return result.rowCount === 1;
}
