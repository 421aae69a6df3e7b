import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../db/client.ts';
import { TEST_JWT_SECRET } from '../../test/app.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';

/**
 * `npm start` as an operator runs it: the start-up log says, one line per method, whether it is
 * live, sandboxed or unavailable; a production server with the sandbox on does not start.
 */
const root = fileURLToPath(new URL('../../../..', import.meta.url));
let paystack: FakePaystack;
beforeAll(async () => {
  paystack = await startFakePaystack();
});
afterAll(() => paystack.close());

async function run(env: Record<string, string>, until: (stdout: string) => boolean) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-payments-log-'));
  onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
  const databaseUrl = inject('testDatabaseUrl');
  const template = inject('pgliteTemplate');
  if (!databaseUrl && template) {
    const seeded = await openDatabase({
      databaseUrl: undefined,
      dataDir,
      loadDataDir: new Blob([await readFile(template)]),
    });
    await seeded.close();
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      JOB_POLL_MS: '0',
      WEB_DIST: path.join(dataDir, 'no-web-build'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const deadline = Date.now() + 45_000;
  while (!until(stdout) && child.exitCode === null && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return { stdout: () => stdout, stderr: () => stderr, child, exited };
}

const paymentLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.includes('"payments: '))
    .map((line) => JSON.parse(line) as { method: string; mode: string; msg: string });

describe('start-up log of the payment methods', () => {
  it('Paystack only: one line per method, Paystack live and TransactPay unavailable', {
    timeout: 60_000,
  }, async () => {
    const { stdout, child } = await run(
      paystack.env,
      (out) => out.includes('Pluckers is ready') && paymentLines(out).length >= 2,
    );
    const lines = paymentLines(stdout());
    expect(lines.map(({ method, mode }) => ({ method, mode }))).toEqual([
      { method: 'transactpay', mode: 'unavailable' },
      { method: 'paystack', mode: 'live' },
    ]);
    expect(lines[0]?.msg).toBe(
      'payments: transactpay unavailable (no TRANSACTPAY_* keys: not offered)',
    );
    child.kill('SIGTERM');
  });

  it('production with PAYMENTS_SANDBOX=true exits 1 with one line naming the variable', {
    timeout: 60_000,
  }, async () => {
    const { stderr, exited } = await run(
      { NODE_ENV: 'production', PAYMENTS_SANDBOX: 'true' },
      () => false,
    );
    expect(await exited).toBe(1);
    expect(stderr().trim()).toBe(
      'Invalid PAYMENTS_SANDBOX: the payments sandbox (test money) is refused with NODE_ENV=production; set PAYMENTS_SANDBOX_IN_PRODUCTION=true to force it',
    );
  });
});
