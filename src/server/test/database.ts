import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { createDatabase, dropDatabase } from './database-server.ts';
import { loadPgliteBinaries } from './pglite-binaries.ts';

/**
 * A database of the test's own, whatever the run's: a fresh PGlite loaded from the run's
 * template, or a small pool on the run's PostgreSQL database. The caller closes it; for tests
 * that close or break their database under an app.
 */
export async function openTestDatabase(poolSize = 2): Promise<DatabaseHandle> {
  const databaseUrl = inject('testDatabaseUrl');
  if (databaseUrl) return openDatabase({ databaseUrl, dataDir: '', poolSize });
  const template = inject('pgliteTemplate');
  if (!template) throw new Error('the PGlite template was not prepared by global-setup');
  // Compiling PostgreSQL's WebAssembly is a third of what opening a database costs: the worker's
  // files share one compilation.
  return openDatabase({
    databaseUrl: undefined,
    dataDir: '',
    inMemory: true,
    loadDataDir: new Blob([await readFile(template)]),
    pglite: await loadPgliteBinaries(),
  });
}

/**
 * The worker's PGlite database, loaded from the template by its first file and kept for the
 * files after it. Server files of a worker run one after another and share its modules
 * (`isolate: false`), so they share this too, as files share the one database on PostgreSQL:
 * each load costs more than most files' tests.
 */
let workerPglite: Promise<DatabaseHandle> | undefined;

/**
 * The database of a test file: the worker's PGlite (see above), or a small pool on the run's
 * PostgreSQL database. Tests make unique data (see factories.ts), so files and tests never need
 * to empty tables, and a file never closes the database it is given (`openTestDatabase()` gives
 * one of its own).
 *
 * `alone`: no other file writes to the database while this file runs, for a file whose data
 * reaches past its own rows (sandbox money pauses every live payout; a check of the whole
 * ledger). The worker's PGlite is alone already, its files running one after another; on
 * PostgreSQL, where files run side by side, the file gets a copy of the run's template.
 */
export function testDatabasePerFile(options: { alone?: boolean } = {}): () => DatabaseHandle {
  let handle: DatabaseHandle | undefined;
  let ownPool = false;
  let ownDatabaseUrl: string | undefined;

  beforeAll(async () => {
    const databaseUrl = inject('testDatabaseUrl');
    if (databaseUrl) {
      if (options.alone) {
        const templateUrl = inject('testDatabaseTemplateUrl');
        if (!templateUrl) throw new Error('the template database was not prepared by global-setup');
        ownDatabaseUrl = await createDatabase(databaseUrl, 'alone', templateUrl);
      }
      handle = await openDatabase({
        databaseUrl: ownDatabaseUrl ?? databaseUrl,
        dataDir: '',
        poolSize: 10,
      });
      ownPool = true;
      return;
    }
    workerPglite ??= openTestDatabase().then((database) => ({
      ...database,
      close: () =>
        Promise.reject(
          new Error(
            'the worker database outlives its files: openTestDatabase() gives one of your own',
          ),
        ),
    }));
    handle = await workerPglite;
  });

  afterAll(async () => {
    if (ownPool) await handle?.close();
    if (ownDatabaseUrl) await dropDatabase(ownDatabaseUrl);
  });

  return () => {
    if (!handle) throw new Error('testDatabasePerFile(): the database is opened in beforeAll');
    return handle;
  };
}
