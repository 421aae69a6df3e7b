import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MIGRATION_LOCK_KEY, openDatabase } from '../src/server/db/client.ts';
import { hashPassword } from '../src/server/modules/auth/passwords.ts';
import { checkLedger } from '../src/server/modules/wallet/ledger-check.ts';
import { buildTestApp } from '../src/server/test/app.ts';
import { bearerFor, createGame, createPlayer, uniqueSuffix } from '../src/server/test/factories.ts';
import { freePort, type Instance, startInstance } from '../src/server/test/instances.ts';
import { createScratchDatabase } from '../src/server/test/scratch-database.ts';
import { findPgbouncer, startPgbouncer } from './pgbouncer.ts';

// Instances whose query pools go through PgBouncer in transaction pooling, which lends a server
// connection for one transaction only: whatever holds a session (the migration lock, LISTEN)
// must take DATABASE_DIRECT_URL, or the lock and the notifications land on whichever
// connection the pooler picked.
const METRICS_TOKEN = 'pgbouncer-test-metrics-token';

function withApplicationName(url: string, name: string): string {
  const named = new URL(url);
  named.searchParams.set('application_name', name);
  return named.toString();
}

async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Change notifications an instance acted on so far (its metrics, every kind but resync). */
async function notificationsActedOn(instance: Instance): Promise<number> {
  const response = await fetch(`${instance.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await response.text();
  return [...text.matchAll(/^pluckers_cache_invalidations_total\{kind="(\w+)"\} (\d+)$/gm)]
    .filter((match) => match[1] !== 'resync')
    .reduce((sum, match) => sum + Number(match[2]), 0);
}

describe('instances through PgBouncer (transaction pooling)', () => {
  it('take the migration lock and LISTEN directly, play and top up through the pooler, and the books balance', async () => {
    const binary = findPgbouncer();
    if (!binary) throw new Error('this test needs PgBouncer: apt-get install -y pgbouncer');
    const databaseUrl = await createScratchDatabase('pgbouncer');
    const dir = await mkdtemp(path.join(tmpdir(), 'pluckers-pgbouncer-'));
    // PgBouncer runs as postgres when the tests run as root: it must read its files.
    await chmod(dir, 0o755);
    const bouncer = await startPgbouncer(binary, {
      port: await freePort(),
      directUrl: databaseUrl,
      dir,
    });
    onTestFinished(async () => {
      await bouncer.stop();
      await rm(dir, { recursive: true, force: true });
    });
    // Every session an instance opens directly carries this name; PgBouncer's do not.
    const directName = `pluckers-direct-${uniqueSuffix()}`;
    const directUrl = withApplicationName(databaseUrl, directName);
    const harnessUrl = withApplicationName(databaseUrl, 'pluckers-test-harness');

    // The test holds the migration lock, so both first starts queue on it where they take it.
    const holder = new pg.Client({ connectionString: harnessUrl });
    await holder.connect();
    onTestFinished(() => holder.end());
    await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const env = { DATABASE_DIRECT_URL: directUrl, METRICS_TOKEN };
    const starting = [0, 1].map(() => startInstance(bouncer.url, env));
    const instances: Instance[] = [];
    onTestFinished(async () => {
      const started = await Promise.allSettled(starting);
      await Promise.all(
        started.map((result) => (result.status === 'fulfilled' ? result.value.kill() : null)),
      );
    });
    const waitersSql = `SELECT a.application_name AS name FROM pg_locks l
      JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.objid = $1 AND NOT l.granted AND l.database =
        (SELECT oid FROM pg_database WHERE datname = current_database())`;
    let waiters: Array<{ name: string }> = [];
    const deadline = Date.now() + 60_000;
    while (waiters.length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      waiters = await query(harnessUrl, waitersSql, [MIGRATION_LOCK_KEY]);
    }
    expect(waiters).toEqual([{ name: directName }, { name: directName }]);
    await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    instances.push(...(await Promise.all(starting)));
    const [first, second] = instances as [Instance, Instance];

    // Players and a game written through the app's own code, straight to PostgreSQL.
    const handle = await openDatabase({ databaseUrl: harnessUrl, dataDir: dir, poolSize: 2 });
    onTestFinished(() => handle.close());
    const app = await buildTestApp(handle, { DATABASE_URL: harnessUrl });
    const password = 'Old-password-123';
    const player = await createPlayer(app.db, {
      overrides: { passwordHash: await hashPassword(password) },
    });
    const changing = await bearerFor(app, player);
    const otherDevice = await bearerFor(app, player);
    for (const instance of instances)
      for (const headers of [changing, otherDevice])
        expect((await fetch(`${instance.url}/api/v1/user`, { headers })).status).toBe(200);

    // Top-ups on both instances (the sandbox checkout), each credited through the pooler.
    for (const instance of instances) {
      const started = await fetch(`${instance.url}/api/v1/payment/transactpay`, {
        method: 'POST',
        headers: { ...changing, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 1_000 }),
      });
      expect(started.status, await started.clone().text()).toBe(200);
      const { paymentUrl } = ((await started.json()) as { data: { paymentUrl: string } }).data;
      const paid = await fetch(`${instance.url}${new URL(paymentUrl).pathname}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
        redirect: 'manual',
      });
      expect(paid.status).toBe(303);
      const back = await fetch(new URL(paid.headers.get('location') ?? '', instance.url), {
        redirect: 'manual',
      });
      expect(back.headers.get('location')).toContain('status=success');
    }

    // Plays on both instances, alternating, each charged through the pooler.
    const games = await Promise.all(
      [0, 1, 2, 3].map(() => createGame(app.db, { entryFee: 10_000n, maximumPlayers: 10 })),
    );
    for (const [index, game] of games.entries()) {
      const instance = instances[index % 2] as Instance;
      const play = await fetch(`${instance.url}/api/v1/game/play`, {
        method: 'POST',
        headers: { ...changing, 'content-type': 'application/json' },
        body: JSON.stringify({
          gameID: game.id,
          submittedAnswer: `answer ${index}`,
          entryFee: 100,
        }),
      });
      expect(play.status, await play.clone().text()).toBe(201);
    }
    const wallet = await fetch(`${second.url}/api/v1/user`, { headers: changing });
    expect(
      ((await wallet.json()) as { data: { accountBalance: number } }).data.accountBalance,
    ).toBe(2_000 - 4 * 100);

    // A password change on one instance reaches the other through its LISTEN connection.
    const before = await notificationsActedOn(second);
    const changed = await fetch(`${first.url}/api/v1/user`, {
      method: 'PUT',
      headers: { ...changing, 'content-type': 'application/json' },
      body: JSON.stringify({
        currentPassword: password,
        password: 'New-password-456',
        confirmPassword: 'New-password-456',
      }),
    });
    expect(changed.status, await changed.clone().text()).toBe(200);
    const changedAt = Date.now();
    while ((await fetch(`${second.url}/api/v1/user`, { headers: otherDevice })).status !== 401)
      expect(Date.now() - changedAt).toBeLessThan(5_000);
    expect(await notificationsActedOn(second)).toBeGreaterThan(before);

    // Each instance has two sessions of its own on PostgreSQL (LISTEN, the readiness probe);
    // its queries went through PgBouncer's server connections, which PgBouncer counted.
    const sessions = await query<{ name: string; n: number }>(
      harnessUrl,
      `SELECT application_name AS name, count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = $1 GROUP BY 1`,
      [directName],
    );
    expect(sessions).toEqual([{ name: directName, n: 4 }]);
    const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
    const adminUrl = new URL(bouncer.url);
    adminUrl.pathname = '/pgbouncer';
    const stats = await query<{ database: string; total_xact_count: string }>(
      adminUrl.toString(),
      'SHOW STATS',
    );
    const transactions = Number(stats.find((row) => row.database === database)?.total_xact_count);
    expect(transactions).toBeGreaterThan(games.length + 2);

    expect(await checkLedger(app.db, { sandbox: true })).toMatchObject({ ok: true });
  }, 180_000);
});
