import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { checkLedger } from '../modules/wallet/ledger-check.ts';
import { buildTestApp, TEST_JWT_SECRET, TEST_KYC_HASH_KEY } from '../test/app.ts';
import {
  bearerFor,
  createAdmin,
  createGame,
  createPlayer,
  play,
  type UserRow,
} from '../test/factories.ts';
import { balanceOf } from '../test/fake-money.ts';
import { createScratchDatabase } from '../test/scratch-database.ts';
import { type Database, type DatabaseHandle, openDatabase } from './client.ts';
import { games, users, withdrawals } from './schema.ts';

/**
 * The backup procedure of docs/backups.md, for real: a database with real money activity (sandbox
 * top-ups, paid plays, a draw, withdrawals paid and pending) is dumped with `pg_dump -Fc` while
 * the server runs, restored with `pg_restore` into a fresh database, and the copy must pass the
 * ledger check with the same balances, rows and sessions, and serve as it is.
 */
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const PUBLIC_URL = 'http://localhost:3999';

async function open(databaseUrl: string): Promise<DatabaseHandle> {
  const handle = await openDatabase({ databaseUrl, dataDir: '', poolSize: 4 });
  onTestFinished(() => handle.close());
  return handle;
}

async function sandboxTopUp(app: FastifyInstance, player: UserRow, naira: number, pay = true) {
  const started = await app.inject({
    method: 'POST',
    url: '/api/v1/payment/transactpay',
    headers: await bearerFor(app, player),
    payload: { amount: naira },
  });
  expect(started.statusCode, started.body).toBe(200);
  const { paymentUrl } = started.json().data as { paymentUrl: string };
  const pressed = await app.inject({
    method: 'POST',
    url: `${new URL(paymentUrl).pathname}/${pay ? 'pay' : 'cancel'}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  expect(pressed.statusCode).toBe(303);
}

async function withdraw(app: FastifyInstance, player: UserRow, naira: number): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/withdrawal',
    headers: await bearerFor(app, player),
    payload: { amount: naira },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.id as string;
}

/** Row counts of every table, and the ledger's total per account: what a restore must keep. */
async function inventory(db: Database) {
  const tables = (
    (await db.execute(sql`
      SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
      WHERE table_schema IN ('public', 'drizzle') AND table_type = 'BASE TABLE'
      ORDER BY 1`)) as unknown as { rows: Array<{ name: string }> }
  ).rows.map((row) => row.name);
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [schema = '', name = ''] = table.split('.');
    const result = (await db.execute(
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(schema)}.${sql.identifier(name)}`,
    )) as unknown as { rows: Array<{ n: number }> };
    counts[table] = result.rows[0]?.n ?? -1;
  }
  const accounts = (
    (await db.execute(sql`
      SELECT account, sum(amount)::text AS total FROM ledger_entries GROUP BY account ORDER BY account`)) as unknown as {
      rows: Array<{ account: string; total: string }>;
    }
  ).rows;
  const balances = await db
    .select({ id: users.id, balance: users.accountBalance })
    .from(users)
    .orderBy(users.id);
  return { counts, accounts, balances };
}

function runAdminScript(databaseUrl: string, command: string) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', command], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: TEST_JWT_SECRET,
      KYC_HASH_KEY: TEST_KYC_HASH_KEY,
    },
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code?: number; stdout?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? '',
    }),
  );
}

describe('backup and restore (pg_dump -Fc, pg_restore)', () => {
  it('a restored copy passes the ledger check with the same balances, and serves', {
    timeout: 120_000,
  }, async () => {
    const sourceUrl = await createScratchDatabase('backup_source');
    const restoredUrl = await createScratchDatabase('backup_restored');
    const source = await open(sourceUrl);
    const app = await buildTestApp(source, { PUBLIC_URL });
    expect(app.paymentProviders.sandbox).toBe(true);

    // Money in through the sandbox checkout (one top-up cancelled), five paid plays filling a
    // game, its draw, a withdrawal paid out by hand and one left pending.
    const admin = await createAdmin(app.db);
    const players = await Promise.all(Array.from({ length: 6 }, () => createPlayer(app.db)));
    for (const player of players) await sandboxTopUp(app, player, 1_000);
    const [first, , , , , last] = players;
    if (!first || !last) throw new Error('no players');
    await sandboxTopUp(app, first, 500, false);
    const game = await createGame(app.db, {
      entryFee: 20_000n,
      reward: 50_000n,
      maximumPlayers: 5,
    });
    for (const player of players.slice(0, 5))
      expect((await play(app, player, game.id)).statusCode).toBe(201);
    expect(await app.jobs.runDue()).toBeGreaterThanOrEqual(1);
    const [drawn] = await app.db.select().from(games).where(eq(games.id, game.id));
    expect(drawn?.status).toBe('COMPLETED');
    const paid = await withdraw(app, last, 300);
    const approved = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/withdrawals/${paid}/approve`,
      headers: await bearerFor(app, admin),
      payload: { paidReference: 'BANK-REF-BACKUP-1', reviewNote: 'First payout, reviewed' },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const pending = await withdraw(app, first, 200);

    // A signed-in player (a session row) whose token must still work on the restored copy.
    const playerToken = await bearerFor(app, last);

    const ledger = await checkLedger(source.db, { sandbox: true });
    expect(ledger.invariants.filter((invariant) => !invariant.ok)).toEqual([]);
    const before = await inventory(source.db);
    expect(before.counts['public.ledger_entries']).toBeGreaterThan(20);
    expect(before.counts['public.game_entries']).toBe(5);
    expect(before.counts['public.withdrawals']).toBe(2);

    // docs/backups.md's commands, while the server is running.
    const directory = await mkdtemp(path.join(tmpdir(), 'pluckers-backup-'));
    onTestFinished(() => rm(directory, { recursive: true, force: true }));
    const dump = path.join(directory, 'pluckers.dump');
    await run('pg_dump', ['--format=custom', `--file=${dump}`, `--dbname=${sourceUrl}`]);
    expect((await stat(dump)).size).toBeGreaterThan(10_000);
    await run('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      `--dbname=${restoredUrl}`,
      dump,
    ]);

    const restored = await open(restoredUrl);
    const restoredLedger = await checkLedger(restored.db, { sandbox: true });
    expect(restoredLedger.invariants.filter((invariant) => !invariant.ok)).toEqual([]);
    expect(restoredLedger.ok).toBe(true);
    expect(await inventory(restored.db)).toEqual(before);
    expect(await balanceOf(restored.db, last.id)).toBe(await balanceOf(source.db, last.id));
    const [pendingRow] = await restored.db
      .select({ status: withdrawals.status })
      .from(withdrawals)
      .where(eq(withdrawals.id, pending));
    expect(pendingRow?.status).toBe('PENDING');

    // The operator's check on the restored copy, as docs/backups.md says to run it.
    const check = await runAdminScript(restoredUrl, 'check-ledger');
    expect(check.stdout).toContain('The books balance.');
    expect(check.code).toBe(0);

    // A server on the copy: nothing to migrate, ready, and a session from before still works.
    const restoredApp = await buildTestApp(restored, { PUBLIC_URL });
    const ready = await restoredApp.inject({ url: '/api/health/ready' });
    expect(ready.json()).toMatchObject({ status: 'ready', migrations: 'applied' });
    const me = await restoredApp.inject({ url: '/api/v1/user', headers: playerToken });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ id: last.id, email: last.email });

    // The check is no formality: a balance that disagrees with its entries fails it.
    await restored.db
      .update(users)
      .set({ accountBalance: sql`${users.accountBalance} + 1` })
      .where(eq(users.id, last.id));
    const broken = await runAdminScript(restoredUrl, 'check-ledger');
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain('The ledger check FAILED.');
    expect(broken.stdout).toContain(last.id);
  });
});
