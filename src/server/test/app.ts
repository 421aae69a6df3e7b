import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject, onTestFinished } from 'vitest';
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

/**
 * Builds the app for one test on the file's database and closes it when the test finishes.
 */
export async function buildTestApp(
  database: DatabaseHandle,
  env: Record<string, string> = {},
  options: { clock?: Clock; rateLimitScope?: string } = {},
): Promise<FastifyInstance> {
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
  onTestFinished(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  await app.ready();
  return app;
}
