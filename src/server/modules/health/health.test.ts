import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { openTestDatabase, testDatabasePerFile } from '../../test/database.ts';
import { loadPgliteBinaries } from '../../test/pglite-binaries.ts';
import { latestMigrationMillis } from './readiness.ts';

const database = testDatabasePerFile();
/** One app for the tests that neither stop it nor need an environment of their own. */
const fileApp = testAppPerFile(database);

/** A second handle on the test database (same kind), which this test may close. */
const ownDatabase = () => openTestDatabase();

/**
 * An embedded database of this test's own, whatever the run's database is, for tests that
 * change what the migrator recorded (the shared PostgreSQL database must not be touched so).
 */
async function privateEmbeddedDatabase(): Promise<DatabaseHandle> {
  const template = inject('pgliteTemplate');
  const handle = await openDatabase({
    databaseUrl: undefined,
    dataDir: '',
    inMemory: true,
    ...(template ? { loadDataDir: new Blob([await readFile(template)]) } : {}),
    pglite: await loadPgliteBinaries(),
  });
  onTestFinished(() => handle.close());
  return handle;
}

describe('GET /api/health', () => {
  it('answers 200 with the database checked', async () => {
    const app = fileApp();

    const response = await app.inject({ url: '/api/health' });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      status: 'ok',
      database: 'ok',
      databaseKind: database().kind,
    });
  });

  it('needs no token', async () => {
    const app = fileApp();
    const response = await app.inject({
      url: '/api/health',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(response.statusCode).toBe(200);
  });

  it('answers 503 when the database cannot be reached', async () => {
    const handle = await ownDatabase();
    const app = await buildTestApp(handle);
    await handle.close();

    const response = await app.inject({ url: '/api/health' });

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'unavailable',
      database: 'unreachable',
      databaseKind: handle.kind,
    });
  });
});

describe('GET /api/health/live', () => {
  it('answers 200 without touching the database, even when it is gone', async () => {
    const handle = await ownDatabase();
    const app = await buildTestApp(handle);
    await handle.close();

    const response = await app.inject({ url: '/api/health/live' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('GET /api/health/ready', () => {
  it('answers 200 when the database answers, has every migration and the server is not draining', async () => {
    const app = fileApp();

    const response = await app.inject({ url: '/api/health/ready' });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      draining: false,
      database: 'ok',
      migrations: 'applied',
    });
  });

  it('answers 503 from the moment the server starts draining, and asks clients to reconnect elsewhere', async () => {
    const app = await buildTestApp(database());
    expect((await app.inject({ url: '/api/health/ready' })).headers.connection).not.toBe('close');

    app.lifecycle.startDraining();

    const ready = await app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      status: 'unavailable',
      draining: true,
      database: 'not_checked',
      migrations: 'not_checked',
    });
    // Everything else is still served while the balancer notices, on connections that close.
    const settings = await app.inject({ url: '/api/v1/settings' });
    expect(settings.statusCode).toBe(200);
    expect(settings.headers.connection).toBe('close');
    expect((await app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
  });

  it('answers 503 naming the database when it cannot be reached', async () => {
    const handle = await ownDatabase();
    const app = await buildTestApp(handle);
    await handle.close();

    const response = await app.inject({ url: '/api/health/ready' });

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'unavailable',
      draining: false,
      database: 'unreachable',
      migrations: 'unknown',
    });
  });

  it('answers 503 naming the migrations when the database lacks one this code ships', async () => {
    const handle = await privateEmbeddedDatabase();
    const app = await buildTestApp(handle);
    expect((await app.inject({ url: '/api/health/ready' })).statusCode).toBe(200);

    // As if the database were restored from a backup older than the running code.
    await handle.db.execute(
      sql`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = ${latestMigrationMillis()}`,
    );

    const response = await app.inject({ url: '/api/health/ready' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'unavailable',
      draining: false,
      database: 'ok',
      migrations: 'pending',
    });
  });
});

describe('health probes and the rate limits', () => {
  it('are never rate limited, while other API calls and made-up health paths are', async () => {
    const app = await buildTestApp(database(), { RATE_LIMIT_MAX: '3' });
    // The balancer's one address, checking every instance over and over.
    const balancer = { remoteAddress: '10.9.8.7' };

    for (let round = 0; round < 10; round += 1) {
      for (const url of ['/api/health', '/api/health/live', '/api/health/ready']) {
        const response = await app.inject({ url, ...balancer });
        expect(response.statusCode, `${url}, round ${round}`).toBe(200);
        expect(response.headers['x-ratelimit-limit']).toBeUndefined();
      }
    }
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1)
      statuses.push((await app.inject({ url: '/api/health/nope', ...balancer })).statusCode);
    expect(statuses).toEqual([404, 404, 404, 429]);
    expect((await app.inject({ url: '/api/v1/settings', ...balancer })).statusCode).toBe(429);
    // The probes still answer after the address has run out of budget.
    expect((await app.inject({ url: '/api/health/ready', ...balancer })).statusCode).toBe(200);
  });
});
