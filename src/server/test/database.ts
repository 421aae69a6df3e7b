import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';

/**
 * One database per test file: a fresh PGlite loaded from the run's template, or a small pool
 * on the shared PostgreSQL test database. Tests make unique data (see factories.ts), so files
 * and tests never need to empty tables.
 */
export function testDatabasePerFile(): () => DatabaseHandle {
  let handle: DatabaseHandle | undefined;

  beforeAll(async () => {
    const databaseUrl = inject('testDatabaseUrl');
    if (databaseUrl) {
      handle = await openDatabase({ databaseUrl, dataDir: '', poolSize: 10 });
      return;
    }
    const template = inject('pgliteTemplate');
    if (!template) throw new Error('the PGlite template was not prepared by global-setup');
    handle = await openDatabase({
      databaseUrl: undefined,
      dataDir: '',
      inMemory: true,
      loadDataDir: new Blob([await readFile(template)]),
    });
  });

  afterAll(async () => {
    await handle?.close();
  });

  return () => {
    if (!handle) throw new Error('testDatabasePerFile(): the database is opened in beforeAll');
    return handle;
  };
}
