import { inject, onTestFinished } from 'vitest';
import { createDatabase, dropDatabase } from './database-server.ts';

/** The run's PostgreSQL test database URL; for files that only run against PostgreSQL. */
export function requireTestDatabaseUrl(): string {
  const url = inject('testDatabaseUrl');
  if (!url) throw new Error('this file runs only against PostgreSQL (TEST_DATABASE_URL)');
  return url;
}

/**
 * A new, empty database on the test server (for what the shared test database cannot show: a
 * first start, a restore), dropped when the test finishes, connections and all.
 */
export async function createScratchDatabase(purpose: string): Promise<string> {
  const url = await createDatabase(requireTestDatabaseUrl(), purpose);
  onTestFinished(() => dropDatabase(url));
  return url;
}
