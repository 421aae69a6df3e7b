/**
 * Builds a scenario's database in this process: the real app (migrations, seed) on the slot's
 * database, the generators, and tokens signed by the app's own `tokens.sign` with the secret
 * the server child will use. Closed again before a server child opens the same PGlite directory.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import type { DatabaseHandle } from '../../src/server/db/client.ts';
import { BENCH_JWT_SECRET } from './server.ts';
import type { Slot } from './target.ts';

export interface Prepared {
  app: FastifyInstance;
  handle: DatabaseHandle;
  /** A bearer token for an existing user id (token version 0, as generated users have). */
  token(userId: string): Promise<string>;
}

export async function withPreparedDatabase<T>(
  slot: Slot,
  work: (prepared: Prepared) => Promise<T>,
): Promise<T> {
  const handle = await slot.open();
  try {
    const app = await buildApp(
      loadConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        SEED_DEMO: 'false',
        JOB_POLL_MS: '0',
        JWT_SECRET: BENCH_JWT_SECRET,
        DATA_DIR: slot.dataDir,
        WEB_DIST: path.join(tmpdir(), 'pluckers-bench-no-web'),
      }),
      { database: handle },
    );
    try {
      await app.ready();
      return await work({
        app,
        handle,
        token: (userId) => app.tokens.sign({ id: userId, tokenVersion: 0 }),
      });
    } finally {
      await app.close();
    }
  } finally {
    await handle.close();
  }
}
