import net from 'node:net';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { PROBE_TIMEOUT_MS } from './readiness.ts';

/**
 * The readiness probe on real PostgreSQL: its own connection, so a busy pool does not make a
 * healthy instance look down, and a deadline, so a database that stops answering is reported
 * as such before the balancer's check times out.
 */
const database = testDatabasePerFile();

function testDatabaseUrl(): string {
  const url = inject('testDatabaseUrl');
  if (!url) throw new Error('this file runs only against PostgreSQL (TEST_DATABASE_URL)');
  return url;
}

/** A TCP server that accepts connections and never says a word, as a hung database would. */
async function silentServer(): Promise<string> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as net.AddressInfo;
  return `postgres://postgres@127.0.0.1:${port}/silent`;
}

describe('GET /api/health/ready on PostgreSQL', () => {
  it('stays 200 and quick while every connection of the app pool is busy', async () => {
    const databaseUrl = testDatabaseUrl();
    const handle = await openDatabase({ databaseUrl, dataDir: '', poolSize: 2 });
    onTestFinished(() => handle.close());
    const app = await buildTestApp(handle, { DATABASE_URL: databaseUrl });

    // Both pooled connections held for 3 s: anything through the pool waits that long.
    const busy = Promise.all([
      handle.db.execute('SELECT pg_sleep(3)'),
      handle.db.execute('SELECT pg_sleep(3)'),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));

    for (const url of ['/api/health/ready', '/api/health']) {
      const started = performance.now();
      const response = await app.inject({ url });
      const elapsed = performance.now() - started;
      expect(response.statusCode, url).toBe(200);
      expect(elapsed, url).toBeLessThan(PROBE_TIMEOUT_MS);
    }
    expect((await app.inject({ url: '/api/health/ready' })).json()).toEqual({
      status: 'ready',
      draining: false,
      database: 'ok',
      migrations: 'applied',
    });
    await busy;
  });

  it('answers 503 "timeout" within its deadline when the database accepts but never answers', async () => {
    const app = await buildTestApp(database(), { DATABASE_URL: await silentServer() });

    for (let attempt = 0; attempt < 2; attempt += 1) {
      const started = performance.now();
      const response = await app.inject({ url: '/api/health/ready' });
      const elapsed = performance.now() - started;

      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 'unavailable',
        draining: false,
        database: 'timeout',
        migrations: 'unknown',
      });
      expect(elapsed).toBeGreaterThanOrEqual(PROBE_TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(PROBE_TIMEOUT_MS + 500);
    }
  });

  it('answers 503 "unreachable" at once when nothing listens at the address', async () => {
    // A port that was free a moment ago: the connection is refused.
    const free = net.createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const freePort = (free.address() as net.AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    const app = await buildTestApp(database(), {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${freePort}/nothing`,
    });

    const started = performance.now();
    const response = await app.inject({ url: '/api/health/ready' });

    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ database: 'unreachable', migrations: 'unknown' });
    expect(performance.now() - started).toBeLessThan(PROBE_TIMEOUT_MS);
  });
});
