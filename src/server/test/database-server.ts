import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The URL of database `name` on the server of `databaseUrl`. */
function onServerOf(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

function nameOf(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
}

/** Runs `work` on the server's maintenance database, from which databases are created and dropped. */
async function onMaintenance<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: onServerOf(databaseUrl, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates a database on the PostgreSQL server of `serverUrl`, named for its purpose: empty, or a
 * copy of the database at `templateUrl` (which nobody may be connected to meanwhile). Returns
 * its URL.
 */
export async function createDatabase(
  serverUrl: string,
  purpose: string,
  templateUrl?: string,
): Promise<string> {
  const name = `pluckers_${purpose}_${randomBytes(5).toString('hex')}`
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_');
  const template = templateUrl ? ` TEMPLATE "${nameOf(templateUrl)}"` : '';
  await onMaintenance(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"${template}`));
  return onServerOf(serverUrl, name);
}

/** Drops a database, closing whatever connections it still has. */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  await onMaintenance(databaseUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS "${nameOf(databaseUrl)}" WITH (FORCE)`),
  );
}
