import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { nodeArgsFor } from '../../../../scripts/build-server.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/client.ts';
import { ledgerTransactions, payments, users } from '../../db/schema.ts';
import { TEST_JWT_SECRET, testEnv } from '../../test/app.ts';
import { createUser, uniqueSuffix } from '../../test/factories.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { newDataDir } from '../../test/instances.ts';
import { loadPgliteBinaries } from '../../test/pglite-binaries.ts';
import { totpCode } from '../auth/totp.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

/**
 * The real server (the run's build of `src/server/main.ts`: embedded PGlite on disk, or the run's
 * PostgreSQL when TEST_DATABASE_URL is set) is killed with SIGKILL in the middle of a burst of
 * signed Paystack webhooks. Restarted on the same database and sent every webhook again, it must
 * credit every payment exactly once.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const START_TIMEOUT_MS = 60_000;

let paystack: FakePaystack;
beforeAll(async () => {
  paystack = await startFakePaystack();
});
afterAll(() => paystack.close());

interface ServerProcess {
  origin: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<void>;
}

/** The variables of this test run that must not leak into the child (it runs its own PGlite). */
const INHERITED_BLOCKLIST = /^(DATABASE_URL|TEST_DATABASE_URL|PAYSTACK_|TRANSACTPAY_|ADMIN_)/;

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !INHERITED_BLOCKLIST.test(name)),
  );
  const child = spawn(process.execPath, nodeArgsFor(inject('serverMain')), {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${START_TIMEOUT_MS} ms:\n${log}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      log = (log + chunk.toString('utf8')).slice(-100_000);
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before it was ready:\n${log}`));
    });
  });
  return { origin, child, output: () => log, exited };
}

describe('crash during a burst of webhooks', () => {
  it('SIGKILL mid-burst, restart, re-delivery: every payment credited exactly once', async () => {
    const databaseUrl = inject('testDatabaseUrl');
    const dataDir = await newDataDir(databaseUrl);
    const running: ServerProcess[] = [];
    onTestFinished(async () => {
      for (const server of running) {
        if (server.child.exitCode === null && server.child.signalCode === null) {
          server.child.kill('SIGKILL');
          await server.exited;
        }
      }
      await rm(dataDir, { recursive: true, force: true });
    });

    const adminEmail = `ops-${uniqueSuffix()}@example.test`;
    const adminPassword = 'correct horse battery staple';
    const env = testEnv({
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      JOB_POLL_MS: '0',
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...paystack.env,
    });

    // Three players with tokens, made the way server tests make them.
    const setup = await buildApp(loadConfig({ ...env, LOG_LEVEL: 'silent' }));
    await setup.ready();
    const players = await Promise.all(Array.from({ length: 3 }, () => createUser(setup.db)));
    const tokens = await Promise.all(players.map((player) => setup.tokens.sign(player)));
    await setup.close();

    const first = await startServer(env);
    running.push(first);
    const api = (origin: string, url: string, init: RequestInit & { token?: string } = {}) =>
      fetch(`${origin}${url}`, {
        ...init,
        headers: {
          ...(init.body ? { 'content-type': 'application/json' } : {}),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...(init.headers as Record<string, string> | undefined),
        },
      });

    // Five top-ups per player, all paid at Paystack.
    const expected = new Map<string, { player: number; kobo: bigint }>();
    for (const [player, token] of tokens.entries()) {
      for (let i = 0; i < 5; i += 1) {
        const naira = 100 * (player + 1) + 10 * i + 7;
        const response = await api(first.origin, '/api/v1/payment/paystack', {
          method: 'POST',
          token,
          body: JSON.stringify({ amount: naira }),
        });
        expect(response.status, await response.clone().text()).toBe(200);
        const { reference } = ((await response.json()) as { data: { reference: string } }).data;
        paystack.markPaid(reference);
        expected.set(reference, { player, kobo: BigInt(naira) * 100n });
      }
    }
    const deliveries = [...expected.keys()].map((reference) => paystack.chargeWebhook(reference));

    // The burst: every webhook three times at once; the process dies after a few answers.
    let answered = 0;
    let killed = false;
    const burst = deliveries.flatMap((delivery) =>
      Array.from({ length: 3 }, () =>
        paystack
          .deliver(`${first.origin}/api/v1/payment/webhook/paystack`, delivery)
          .then((response) => {
            answered += 1;
            if (answered >= 8 && !killed) {
              killed = true;
              first.child.kill('SIGKILL');
            }
            return response.status;
          })
          .catch(() => 'connection lost' as const),
      ),
    );
    const outcomes = await Promise.all(burst);
    await first.exited;
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(outcomes.filter((o) => o === 200).length).toBeGreaterThanOrEqual(8);
    // The kill landed mid-burst: some deliveries never got an answer.
    expect(outcomes.filter((o) => o === 'connection lost').length).toBeGreaterThan(0);

    // Restart on the same database (PGlite recovers from its WAL) and re-deliver everything.
    const second = await startServer(env);
    running.push(second);
    const redelivered = await Promise.all(
      deliveries.flatMap((delivery) =>
        Array.from({ length: 2 }, () =>
          paystack
            .deliver(`${second.origin}/api/v1/payment/webhook/paystack`, delivery)
            .then((r) => r.status),
        ),
      ),
    );
    expect(redelivered.every((status) => status === 200)).toBe(true);

    for (const [player, token] of tokens.entries()) {
      const response = await api(second.origin, '/api/v1/payment?page=1', { token });
      const list = (
        (await response.json()) as {
          data: { payments: Array<{ reference: string; status: string }> };
        }
      ).data.payments;
      expect(list).toHaveLength(5);
      expect(list.every((payment) => payment.status === 'successful')).toBe(true);
      const total = [...expected.values()]
        .filter((e) => e.player === player)
        .reduce((sum, e) => sum + e.kobo, 0n);
      const me = await api(second.origin, '/api/v1/user', { token });
      const profile = ((await me.json()) as { data: { accountBalance: number } }).data;
      expect(BigInt(Math.round(profile.accountBalance * 100))).toBe(total);
    }

    const login = await api(second.origin, '/api/v1/auth/login', {
      method: 'POST',
      body: JSON.stringify({ email: adminEmail, password: adminPassword }),
    });
    expect(login.status).toBe(200);
    const adminToken = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
    // The console opens once the operator's authenticator is enrolled, with a code computed
    // from its secret as the phone would.
    const enrolment = await api(second.origin, '/api/v1/admin/second-factor/enrolment', {
      method: 'POST',
      token: adminToken,
    });
    const { secret } = ((await enrolment.json()) as { data: { secret: string } }).data;
    const confirmed = await api(second.origin, '/api/v1/admin/second-factor/enrolment/confirm', {
      method: 'POST',
      token: adminToken,
      body: JSON.stringify({ code: totpCode(secret, Date.now()) }),
    });
    expect(confirmed.status).toBe(200);
    const check = await api(second.origin, '/api/v1/admin/ledger/check', { token: adminToken });
    const report = (await check.json()) as { message: string; data: { ok: boolean } };
    expect(report, JSON.stringify(report)).toMatchObject({
      message: 'The books balance',
      data: { ok: true },
    });

    // Stop it properly, then count the postings in the database itself.
    second.child.kill('SIGTERM');
    await second.exited;
    expect(second.child.exitCode).toBe(0);
    const handle = await openDatabase({
      databaseUrl: databaseUrl ?? undefined,
      dataDir,
      ...(databaseUrl ? {} : { pglite: await loadPgliteBinaries() }),
    });
    try {
      const references = [...expected.keys()];
      const postings = await handle.db
        .select({ reference: ledgerTransactions.reference })
        .from(ledgerTransactions)
        .where(
          inArray(
            ledgerTransactions.reference,
            references.map((reference) => `topup:paystack:${reference}`),
          ),
        );
      expect(postings.map((p) => p.reference).sort()).toEqual(
        references.map((reference) => `topup:paystack:${reference}`).sort(),
      );
      const rows = await handle.db
        .select({ status: payments.status })
        .from(payments)
        .where(inArray(payments.reference, references));
      expect(rows.map((row) => row.status)).toEqual(Array(references.length).fill('SUCCESS'));
      for (const [index, player] of players.entries()) {
        const [row] = await handle.db
          .select({ balance: users.accountBalance })
          .from(users)
          .where(eq(users.id, player.id));
        const total = [...expected.values()]
          .filter((e) => e.player === index)
          .reduce((sum, e) => sum + e.kobo, 0n);
        expect(row?.balance).toBe(total);
      }
      expect((await checkLedger(handle.db, { sandbox: false })).ok).toBe(true);
    } finally {
      await handle.close();
    }
  }, 180_000);
});
