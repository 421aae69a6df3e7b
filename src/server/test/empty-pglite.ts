import { readFile } from 'node:fs/promises';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { loadPgliteBinaries } from './pglite-binaries.ts';

let empty: Promise<Blob | undefined> | undefined;

/**
 * A PGlite data directory as a new database starts: no tables, no migrations applied. Made once
 * per process from the run's template (global-setup) by dropping its schemas, as the run does to
 * its PostgreSQL database before migrating it: creating a cluster (initdb) costs several times
 * loading one. Undefined on a PostgreSQL run, which has no template: the caller's PGlite then
 * creates its cluster as usual.
 */
export function emptyPgliteDataDir(): Promise<Blob | undefined> {
  empty ??= (async () => {
    const template = inject('pgliteTemplate');
    if (!template) return undefined;
    const client = new PGlite(await pgliteOptions(new Blob([await readFile(template)])));
    try {
      await client.exec(
        'DROP SCHEMA public CASCADE; DROP SCHEMA drizzle CASCADE; CREATE SCHEMA public;',
      );
      return await client.dumpDataDir('none');
    } finally {
      await client.close();
    }
  })();
  return empty;
}

/** PGlite's compiled PostgreSQL, shared with the worker's other databases, loading `dataDir`. */
export async function pgliteOptions(dataDir: Blob | undefined): Promise<PGliteOptions> {
  return { ...(await loadPgliteBinaries()), ...(dataDir ? { loadDataDir: dataDir } : {}) };
}

/** Options for a new, empty PGlite database: the run's emptied template when there is one. */
export async function emptyPgliteOptions(): Promise<PGliteOptions> {
  return pgliteOptions(await emptyPgliteDataDir());
}
