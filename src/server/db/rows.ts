import type { SQL } from 'drizzle-orm';
import type { Executor } from './client.ts';

/**
 * The rows of a raw statement, typed by the caller. Drizzle types `execute` per driver, and
 * node-postgres and PGlite both answer `{ rows }`, so the cast lives here once.
 */
export async function rowsOf<T>(db: Executor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
