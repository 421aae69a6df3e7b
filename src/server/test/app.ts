import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, inject, onTestFinished } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { uniqueSuffix } from './factories.ts';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
/** Servers on PostgreSQL need it from the environment, one for every instance (config.ts). */
export const TEST_KYC_HASH_KEY = 'test-kyc-hash-key-that-is-long-enough-to-key';

/** Environment of a test app: silent logs, no demo games, a throwaway DATA_DIR. */
export function testEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    JOB_POLL_MS: '0',
    // Rate limits are shared through the database, and test files share one on PostgreSQL while
    // every inject() comes from 127.0.0.1: tests about limits set their own.
    RATE_LIMIT_MAX: '1000000',
    JWT_SECRET: TEST_JWT_SECRET,
    // Required on PostgreSQL; elsewhere each app keeps its own in its DATA_DIR, so test files
    // that verify the same sandbox identity on a shared database do not meet.
    ...(overrides.DATABASE_URL ? { KYC_HASH_KEY: TEST_KYC_HASH_KEY } : {}),
    WEB_DIST: path.join(tmpdir(), 'pluckers-no-web-build'),
    ...overrides,
  };
}

type AppOptions = { clock?: Clock; rateLimitScope?: string };

/** An app on `database` with the test environment and a DATA_DIR of its own; `close` removes both. */
async function startTestApp(
  database: DatabaseHandle,
  env: Record<string, string>,
  options: AppOptions,
): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-test-'));
  // Draws wait for a beacon round: the run's stand-in (global setup) signs them.
  const beaconEnv = inject('beaconEnv');
  const app = await buildApp(loadConfig(testEnv({ DATA_DIR: dataDir, ...beaconEnv, ...env })), {
    database,
    clock: options.clock,
    // Test files share a PostgreSQL database, and inject() requests all come from 127.0.0.1:
    // each app counts on its own unless the test is about sharing.
    rateLimitScope: options.rateLimitScope ?? `test-${uniqueSuffix()}:`,
  });
  const close = async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await app.ready();
  } catch (error) {
    await close();
    throw error;
  }
  return { app, close };
}

/**
 * Builds the app for one test on the file's database and closes it when the test finishes: for
 * a test with an environment or a clock of its own, or one that stops or breaks its app.
 */
export async function buildTestApp(
  database: DatabaseHandle,
  env: Record<string, string> = {},
  options: AppOptions = {},
): Promise<FastifyInstance> {
  const { app, close } = await startTestApp(database, env, options);
  onTestFinished(close);
  return app;
}

/**
 * One app for all the tests of a file, built in beforeAll and closed in afterAll: building an
 * app costs more than most tests. For tests that share its environment and leave it running;
 * they make their own unique data (factories.ts), so they pass in any order. Call it after
 * `testDatabasePerFile()`, whose database it is built on, and after the beforeAll hooks that
 * start what `env` names.
 */
export function testAppPerFile(
  database: () => DatabaseHandle,
  /** Or a function, for an environment made in the file's own beforeAll (a fake provider's URL). */
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: AppOptions = {},
): () => FastifyInstance {
  let started: { app: FastifyInstance; close: () => Promise<void> } | undefined;

  beforeAll(async () => {
    started = await startTestApp(database(), typeof env === 'function' ? env() : env, options);
  });

  afterAll(async () => {
    await started?.close();
    started = undefined;
  });

  return () => {
    if (!started) throw new Error('testAppPerFile(): the app is built in beforeAll');
    return started.app;
  };
}
