import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { type FakeFlutterwave, startFakeFlutterwave } from '../../test/fake-flutterwave.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { spawnServer } from '../../test/instances.ts';

/**
 * `npm start` as an operator runs it: the start-up log says, one line per method, whether it is
 * live, sandboxed or unavailable; a production server with the sandbox on does not start.
 */
let paystack: FakePaystack;
let flutterwave: FakeFlutterwave;
beforeAll(async () => {
  [paystack, flutterwave] = await Promise.all([startFakePaystack(), startFakeFlutterwave()]);
});
afterAll(() => Promise.all([paystack.close(), flutterwave.close()]));

async function run(env: Record<string, string>, until: (stdout: string) => boolean) {
  const server = await spawnServer(inject('testDatabaseUrl'), { LOG_LEVEL: 'info', ...env });
  onTestFinished(() => server.kill());
  // Checked on each line the server prints, not on a timer; gives up when it exits or after 45 s
  // (the assertions then show what it did print).
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      server.child.stdout?.off('data', check);
      resolve();
    };
    const check = () => {
      if (until(server.stdout())) done();
    };
    const timer = setTimeout(done, 45_000);
    server.child.stdout?.on('data', check);
    void server.exited.then(done);
    check();
  });
  return { ...server, exited: server.exited.then(({ code }) => code) };
}

const paymentLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line.includes('"payments: '))
    .map((line) => JSON.parse(line) as { method: string; mode: string; msg: string });

describe('start-up log of the payment methods', () => {
  it('Paystack only: one line per method, Paystack live and the others unavailable', {
    timeout: 60_000,
  }, async () => {
    const { stdout, child } = await run(
      paystack.env,
      (out) => out.includes('Pluckers is ready') && paymentLines(out).length >= 3,
    );
    const lines = paymentLines(stdout());
    expect(lines.map(({ method, mode }) => ({ method, mode }))).toEqual([
      { method: 'transactpay', mode: 'unavailable' },
      { method: 'paystack', mode: 'live' },
      { method: 'flutterwave', mode: 'unavailable' },
    ]);
    expect(lines[0]?.msg).toBe(
      'payments: transactpay unavailable (no TRANSACTPAY_* keys: not offered)',
    );
    expect(lines[2]?.msg).toBe(
      'payments: flutterwave unavailable (no FLUTTERWAVE_* keys: not offered)',
    );
    child.kill('SIGTERM');
  });

  it('Flutterwave with Paystack: both live, TransactPay unavailable', {
    timeout: 60_000,
  }, async () => {
    const { stdout, child } = await run(
      { ...paystack.env, ...flutterwave.env },
      (out) => out.includes('Pluckers is ready') && paymentLines(out).length >= 3,
    );
    const lines = paymentLines(stdout());
    expect(lines.map(({ method, mode }) => ({ method, mode }))).toEqual([
      { method: 'transactpay', mode: 'unavailable' },
      { method: 'paystack', mode: 'live' },
      { method: 'flutterwave', mode: 'live' },
    ]);
    expect(lines[2]?.msg).toBe('payments: flutterwave live (card top-ups through Flutterwave)');
    child.kill('SIGTERM');
  });

  it('a Flutterwave key without its webhook hash exits 1 with one line naming the variable', {
    timeout: 60_000,
  }, async () => {
    const { stderr, exited } = await run(
      { FLUTTERWAVE_SECRET_KEY: flutterwave.secretKey },
      () => false,
    );
    expect(await exited).toBe(1);
    expect(stderr().trim()).toBe(
      'Invalid FLUTTERWAVE_WEBHOOK_HASH: set FLUTTERWAVE_SECRET_KEY, FLUTTERWAVE_WEBHOOK_HASH together, or neither',
    );
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
