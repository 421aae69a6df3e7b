import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { games, users } from './db/schema.ts';
import { notify } from './modules/notifications/service.ts';
import { testEnv } from './test/app.ts';
import { createUser } from './test/factories.ts';

/**
 * The embedded database and the generated JWT secret live in DATA_DIR, so stopping and starting
 * the server keeps accounts, notices and sessions. Always PGlite on disk: that is what it checks.
 */
describe('restart on the same DATA_DIR', () => {
  it('keeps the data, does not seed twice, and accepts tokens signed before', {
    timeout: 60_000,
  }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-restart-'));
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    // No DATABASE_URL and no JWT_SECRET: PGlite files and a generated secret in DATA_DIR.
    const env = testEnv({ DATA_DIR: dataDir, JWT_SECRET: '', SEED_DEMO: 'true' });
    let open: FastifyInstance | undefined;
    onTestFinished(async () => {
      await open?.close();
    });
    const start = async () => {
      open = await buildApp(loadConfig(env));
      await open.ready();
      return open;
    };

    const first = await start();
    expect(first.database.kind).toBe('pglite');
    const user = await createUser(first.db);
    await notify(first.db, user.id, 'Welcome to Pluckers', 'Your account is ready.');
    const token = await first.tokens.sign(user);
    const [gamesBefore] = await first.db.select({ n: count() }).from(games);
    expect(gamesBefore?.n).toBeGreaterThan(0);
    await first.close();
    open = undefined;

    expect((await stat(path.join(dataDir, 'pglite'))).isDirectory()).toBe(true);
    const secret = await readFile(path.join(dataDir, 'jwt-secret'), 'utf8');
    expect(secret.trim().length).toBeGreaterThanOrEqual(32);

    const second = await start();
    const [stored] = await second.db.select().from(users).where(eq(users.id, user.id));
    expect(stored?.email).toBe(user.email);
    const [gamesAfter] = await second.db.select({ n: count() }).from(games);
    expect(gamesAfter?.n).toBe(gamesBefore?.n);

    const headers = { authorization: `Bearer ${token}` };
    const me = await second.inject({ url: '/api/v1/user', headers });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ id: user.id, email: user.email });
    const notices = await second.inject({ url: '/api/v1/notification', headers });
    expect(notices.statusCode).toBe(200);
    expect(notices.json().data.notifications).toEqual([
      expect.objectContaining({
        title: 'Welcome to Pluckers',
        message: 'Your account is ready.',
        hasRead: false,
      }),
    ]);
    // The secret file was reused, not regenerated.
    expect(await readFile(path.join(dataDir, 'jwt-secret'), 'utf8')).toBe(secret);
  });
});
