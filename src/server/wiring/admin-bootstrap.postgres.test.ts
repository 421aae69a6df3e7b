import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { testEnv } from '../test/app.ts';
import { uniqueSuffix } from '../test/factories.ts';
import { createScratchDatabase, requireTestDatabaseUrl } from '../test/scratch-database.ts';
import { ensureAdmin } from './admin-bootstrap.ts';

/**
 * Several instances starting at once on one database each bootstrap the operator account
 * (one in three crashed on the unique e-mail).
 */
describe('operator bootstrap from several instances at once', () => {
  // The sharp test: before the fix, two of six calls failed on the unique e-mail every time.
  it('six ensureAdmin calls on six connections: no error, exactly one operator', async () => {
    const databaseUrl = requireTestDatabaseUrl();
    const handles = await Promise.all(
      Array.from({ length: 6 }, () => openDatabase({ databaseUrl, dataDir: '', poolSize: 1 })),
    );
    onTestFinished(() => Promise.all(handles.map((handle) => handle.close())).then(() => {}));
    const email = `race${uniqueSuffix()}@example.test`;

    const results = await Promise.allSettled(
      handles.map((handle) => ensureAdmin(handle.db, email, 'operator password', new Date())),
    );

    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const [first] = handles;
    const rows = await first?.db
      .select({ role: users.role })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email));
    expect(rows).toEqual([{ role: 'admin' }]);
  });

  // The whole start-up (migrations, seed, bootstrap) as three instances run it at once.
  it('three servers starting together on an empty database: all start, one operator', {
    timeout: 120_000,
  }, async () => {
    const databaseUrl = await createScratchDatabase('bootstrap');
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-bootstrap-'));
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    const env = testEnv({
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL: 'Ops@Pluckers.test',
      ADMIN_PASSWORD: 'operator password',
      SEED_DEMO: 'true',
      DATA_DIR: dataDir,
    });
    const started: FastifyInstance[] = [];
    onTestFinished(() => Promise.all(started.map((app) => app.close())).then(() => {}));

    const results = await Promise.allSettled(
      Array.from({ length: 3 }, async () => {
        const app = await buildApp(loadConfig(env));
        started.push(app);
        await app.ready();
        return app;
      }),
    );

    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    const [app] = started;
    if (!app) throw new Error('no server started');
    const admins = await app.db
      .select({ email: users.email, role: users.role })
      .from(users)
      .where(eq(users.role, 'admin'));
    expect(admins).toEqual([{ email: 'ops@pluckers.test', role: 'admin' }]);
    // Every server answers as ready on the database they set up together.
    for (const server of started)
      expect((await server.inject({ url: '/api/health/ready' })).statusCode).toBe(200);
  });
});
