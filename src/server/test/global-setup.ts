import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildServerForRun } from '../../../scripts/build-server.ts';
import { openDatabase } from '../db/client.ts';
import { seedDatabase } from '../seed/seed.ts';
import { createDatabase, dropDatabase } from './database-server.ts';
import { startFakeBeacon } from './fake-beacon.ts';
import { loadPgliteBinaries } from './pglite-binaries.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite mode: a migrated, seeded data directory dump every test file starts from. */
    pgliteTemplate: string | null;
    /**
     * PGlite mode: the same database as a DATA_DIR on disk, which a server process's throwaway
     * DATA_DIR copies (`newDataDir()`).
     */
    pgliteTemplateDataDir: string | null;
    testDatabaseUrl: string | null;
    /**
     * PostgreSQL mode: an untouched copy of the migrated, seeded test database, which files that
     * need a database to themselves copy (`testDatabasePerFile({ alone: true })`).
     */
    testDatabaseTemplateUrl: string | null;
    /** BEACON_* variables of the run's stand-in randomness beacon (test/fake-beacon.ts). */
    beaconEnv: Record<string, string>;
    /** The run's build of the server, which server processes of tests run (`node <file>`). */
    serverMain: string;
  }
}

interface RunDatabase {
  testDatabaseUrl: string | null;
  testDatabaseTemplateUrl: string | null;
  pgliteTemplate: string | null;
  pgliteTemplateDataDir: string | null;
  beaconEnv: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The run's database, prepared once per run. PostgreSQL (TEST_DATABASE_URL): the schema is
 * dropped and migrated afresh so a run never depends on what an earlier run left. PGlite: one
 * migrated, seeded database is dumped so each test file loads it in a fraction of a second.
 */
async function prepareRunDatabase(): Promise<RunDatabase> {
  const databaseUrl = process.env.TEST_DATABASE_URL || null;
  // One beacon for the run: draws of every test app are signed and verified like real rounds.
  const beacon = await startFakeBeacon();

  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(
      'DROP SCHEMA IF EXISTS public CASCADE; DROP SCHEMA IF EXISTS drizzle CASCADE; CREATE SCHEMA public;',
    );
    await client.end();
    const handle = await openDatabase({ databaseUrl, dataDir: '' });
    await handle.migrate();
    await seedDatabase(handle.db, { demoGames: false });
    await handle.close();
    // Copied before any file connects: a template may have no connections while it is copied.
    const templateUrl = await createDatabase(databaseUrl, 'template', databaseUrl);
    return {
      testDatabaseUrl: databaseUrl,
      testDatabaseTemplateUrl: templateUrl,
      pgliteTemplate: null,
      pgliteTemplateDataDir: null,
      beaconEnv: beacon.env,
      close: async () => {
        await dropDatabase(templateUrl);
        await beacon.close();
      },
    };
  }

  const directory = await mkdtemp(path.join(tmpdir(), 'pluckers-template-'));
  // Both databases below share one compilation of PostgreSQL's WebAssembly.
  const pglite = await loadPgliteBinaries();
  const handle = await openDatabase({
    databaseUrl: undefined,
    dataDir: '',
    inMemory: true,
    pglite,
  });
  await handle.migrate();
  await seedDatabase(handle.db, { demoGames: false });
  const file = path.join(directory, 'template.tar');
  const dump = await handle.dumpDataDir();
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  // Unpacked once here: copying these files into a server process's DATA_DIR costs far less
  // than loading the dump into it (bench/RESULTS.md).
  const dataDir = path.join(directory, 'data');
  await (
    await openDatabase({ databaseUrl: undefined, dataDir, loadDataDir: dump, pglite })
  ).close();
  return {
    testDatabaseUrl: null,
    testDatabaseTemplateUrl: null,
    pgliteTemplate: file,
    pgliteTemplateDataDir: dataDir,
    beaconEnv: beacon.env,
    close: async () => {
      await rm(directory, { recursive: true, force: true });
      await beacon.close();
    },
  };
}

/**
 * The projects of one run (server and web in `npm test`) share one preparation, the database
 * and the server's build: their global setups run in the same process, and a second migrate,
 * seed and dump would cost as much as the first. The last project to finish closes it.
 */
const run = globalThis as typeof globalThis & {
  pluckersRunDatabase?: {
    prepared: Promise<RunDatabase>;
    server: ReturnType<typeof buildServerForRun>;
    users: number;
  };
};

export default async function setup(project: TestProject) {
  run.pluckersRunDatabase ??= {
    prepared: prepareRunDatabase(),
    server: buildServerForRun(),
    users: 0,
  };
  const shared = run.pluckersRunDatabase;
  shared.users += 1;
  const [database, server] = await Promise.all([shared.prepared, shared.server]);
  project.provide('testDatabaseUrl', database.testDatabaseUrl);
  project.provide('testDatabaseTemplateUrl', database.testDatabaseTemplateUrl);
  project.provide('pgliteTemplate', database.pgliteTemplate);
  project.provide('pgliteTemplateDataDir', database.pgliteTemplateDataDir);
  project.provide('beaconEnv', database.beaconEnv);
  project.provide('serverMain', server.main);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    run.pluckersRunDatabase = undefined;
    await Promise.all([database.close(), server.remove()]);
  };
}
