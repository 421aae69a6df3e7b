/**
 * A warm server for the browser tests (e2e/support/server-pool.ts): a Node process that has
 * imported the server's modules and compiled PGlite's PostgreSQL once, and then runs what
 * `src/server/main.ts` runs (the configuration from an environment, `buildApp`, listen) for one
 * test file at a time, closing it all when the file is done. Importing the server and compiling
 * PostgreSQL are most of what starting `main.ts` costs, and every file paid them.
 *
 * Run as `node --import tsx e2e/support/server-process.ts` with an IPC channel; never imported.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { type AppConfig, loadConfig } from '../../src/server/config.ts';
import { type DatabaseHandle, openDatabase } from '../../src/server/db/client.ts';
import { loadPgliteBinaries } from '../../src/server/test/pglite-binaries.ts';

/** Start the app with this environment, or close it. */
export type WarmServerStep =
  | { type: 'open'; env: Record<string, string | undefined> }
  | { type: 'close' };
export type WarmServerCommand = WarmServerStep & { id: number };

export type WarmServerMessage = { type: 'ready' } | { type: 'done'; id: number; error?: string };

let serving: { app: FastifyInstance; database: DatabaseHandle; config: AppConfig } | null = null;

async function open(env: Record<string, string | undefined>): Promise<void> {
  if (serving) throw new Error('this server process is already serving a file');
  const config: AppConfig = loadConfig(env);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    pglite: await loadPgliteBinaries(),
  });
  try {
    // The database plugin migrates and seeds a database it is handed as one it opens itself.
    const app = await buildApp(config, { database });
    serving = { app, database, config };
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    if (serving) await close();
    else await database.close();
    throw error;
  }
}

async function close(): Promise<void> {
  const current = serving;
  serving = null;
  if (!current) return;
  current.app.lifecycle.startDraining();
  // As main.ts does: a close that outlasts SHUTDOWN_TIMEOUT_MS ends the process instead.
  const timer = setTimeout(() => {
    const open = process.getActiveResourcesInfo().join(', ');
    console.error(`shutdown took too long (SHUTDOWN_TIMEOUT_MS), exiting; still open: ${open}`);
    process.exit(1);
  }, current.config.shutdownTimeoutMs);
  await current.app.close();
  clearTimeout(timer);
  await current.database.close();
}

const send = (message: WarmServerMessage) => process.send?.(message);

process.on('message', (command: WarmServerCommand) => {
  const step = command.type === 'open' ? open(command.env) : close();
  step.then(
    () => send({ type: 'done', id: command.id }),
    (error: unknown) =>
      send({
        type: 'done',
        id: command.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
process.on('disconnect', () => {
  void close().finally(() => process.exit(0));
});

await loadPgliteBinaries();
send({ type: 'ready' });
