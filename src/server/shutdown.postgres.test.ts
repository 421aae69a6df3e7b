import http from 'node:http';
import net from 'node:net';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { openDatabase } from './db/client.ts';
import { hashPassword } from './modules/auth/passwords.ts';
import { createUser } from './test/factories.ts';
import { startInstance } from './test/instances.ts';

/**
 * Graceful shutdown of the real process as a load balancer sees it: on
 * SIGTERM /api/health/ready turns 503 at once while the listener stays open for
 * SHUTDOWN_DELAY_MS, then the listener closes, requests in flight still finish with 200, and the
 * process exits 0. The "balancer" here sends traffic until the probe says 503, as HAProxy does.
 */
const SHUTDOWN_DELAY_MS = 1_500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(databaseUrl: string) {
  const server = await startInstance(databaseUrl, {
    LOG_LEVEL: 'info',
    SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
  });
  onTestFinished(() => server.kill());
  return server;
}

interface Outcome {
  status: number | 'error';
  error?: string;
  startedAt: number;
  endedAt: number;
}

/**
 * One request on a connection of its own whose body arrives in two halves `spreadMs` apart:
 * a request that is in flight, for as long as the test wants.
 */
function slowRequest(
  port: number,
  url: string,
  payload: unknown,
  spreadMs: number,
): Promise<Outcome> {
  const startedAt = performance.now();
  const body = JSON.stringify(payload);
  return new Promise((resolve) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: url,
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, startedAt, endedAt: performance.now() }),
      );
    });
    request.on('error', (error) =>
      resolve({ status: 'error', error: error.message, startedAt, endedAt: performance.now() }),
    );
    const half = Math.floor(body.length / 2);
    request.write(body.slice(0, half));
    setTimeout(() => request.end(body.slice(half)), spreadMs);
  });
}

/** Whether a new TCP connection is accepted right now. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('graceful shutdown behind a load balancer', () => {
  it('on SIGTERM: ready turns 503 before the listener closes, requests in flight finish with 200, exit 0', {
    timeout: 90_000,
  }, async () => {
    const databaseUrl = inject('testDatabaseUrl');
    if (!databaseUrl) throw new Error('this file runs only against PostgreSQL (TEST_DATABASE_URL)');
    const password = 'a long shutdown password';
    const setup = await openDatabase({ databaseUrl, dataDir: '', poolSize: 1 });
    const user = await createUser(setup.db, { passwordHash: await hashPassword(password) });
    await setup.close();
    const login = { email: user.email, password };

    const { child, port, output, exited } = await startServer(databaseUrl);

    // The balancer: checks readiness every 50 ms, and sends a sign-in (~400 ms each, its body
    // dribbling in) every 100 ms for as long as the instance is ready.
    let balancerSendsTraffic = true;
    let firstNotReadyAt: number | null = null;
    let listenerClosedAt: number | null = null;
    const readyAnswers: Array<{ at: number; status: number | 'refused' }> = [];
    const traffic: Array<Promise<Outcome>> = [];
    const checks = (async () => {
      while (listenerClosedAt === null) {
        const at = performance.now();
        const status = await fetch(`http://127.0.0.1:${port}/api/health/ready`, {
          signal: AbortSignal.timeout(2_000),
        }).then(
          (response) => response.status,
          () => 'refused' as const,
        );
        readyAnswers.push({ at, status });
        if (status !== 200) balancerSendsTraffic = false;
        if (status === 503 && firstNotReadyAt === null) firstNotReadyAt = at;
        if (!(await accepts(port))) listenerClosedAt = performance.now();
        await sleep(50);
      }
    })();
    const sending = (async () => {
      while (balancerSendsTraffic) {
        traffic.push(slowRequest(port, '/api/v1/auth/login', login, 400));
        await sleep(100);
      }
    })();

    await sleep(800);
    // A long request: its body is still arriving after the listener has closed.
    const longOne = slowRequest(port, '/api/v1/auth/login', login, SHUTDOWN_DELAY_MS + 1_200);
    await sleep(100);
    const signalledAt = performance.now();
    child.kill('SIGTERM');

    await Promise.all([checks, sending]);
    const outcomes = await Promise.all([...traffic, longOne]);
    const longOutcome = await longOne;
    const { code, signal } = await exited;

    expect(firstNotReadyAt, 'ready must turn 503').not.toBeNull();
    expect(listenerClosedAt, 'the listener must close').not.toBeNull();
    const notReadyAt = firstNotReadyAt ?? Number.NaN;
    const closedAt = listenerClosedAt ?? Number.NaN;
    // 503 at the first check after the signal, long before the listener closed.
    expect(notReadyAt).toBeGreaterThanOrEqual(signalledAt - 100);
    expect(notReadyAt - signalledAt).toBeLessThan(400);
    expect(closedAt - notReadyAt).toBeGreaterThan(SHUTDOWN_DELAY_MS - 400);
    // Before the signal every check said ready; after the first 503 none did.
    const before = readyAnswers.filter((answer) => answer.at < signalledAt - 100);
    expect(before.length).toBeGreaterThan(3);
    expect(before.every((answer) => answer.status === 200)).toBe(true);
    const after = readyAnswers.filter((answer) => answer.at > notReadyAt);
    expect(after.every((answer) => answer.status !== 200)).toBe(true);

    // Every request sent, including those still in flight at the signal and at the close, 200.
    expect(outcomes.length).toBeGreaterThan(6);
    expect(outcomes.filter((o) => o.status !== 200)).toEqual([]);
    expect(outcomes.filter((o) => o.endedAt > signalledAt).length).toBeGreaterThan(3);
    expect(longOutcome.endedAt).toBeGreaterThan(closedAt);

    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(output()).toContain('shutting down: not ready any more');
    expect(output()).toContain('shutting down: finishing in-flight requests');
  });
});
