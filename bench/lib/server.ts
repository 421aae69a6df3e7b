/**
 * Child processes the bench measures: the real server (built by scripts/build-server.ts, exactly
 * what `npm start` runs once the web app is built) and the bare `node:http` server that
 * replays one captured response. Logs go to a file, not through this process, so reading them
 * costs the load generator nothing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServerForRun, nodeArgsFor, type ServerBuild } from '../../scripts/build-server.ts';
import { since, sleep } from './stats.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Signs the tokens the bench hands its players; the server child gets the same secret. */
export const BENCH_JWT_SECRET = 'bench-secret-that-is-long-enough-for-hs256-signing';
const BENCH_KYC_HASH_KEY = 'bench-kyc-hash-key-that-is-long-enough-to-key';

const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;

export interface Child {
  url: string;
  process: ChildProcess;
  /** Milliseconds from spawn to the first successful answer of the readiness probe. */
  readyAfterMs: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const done = await Promise.race([exited(child).then(() => true), sleep(STOP_TIMEOUT_MS)]);
  if (!done) {
    child.kill('SIGKILL');
    await exited(child);
  }
}

async function spawnAndWait(options: {
  args: string[];
  env: Record<string, string | undefined>;
  logFile: string;
  url: string;
  probePath: string;
}): Promise<Child> {
  const log = openSync(options.logFile, 'a');
  const start = performance.now();
  const child = spawn(process.execPath, options.args, {
    cwd: ROOT,
    env: options.env,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const stop = () => stopChild(child);

  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${options.args.join(' ')} exited (${child.exitCode ?? child.signalCode}) before it was ready; see ${options.logFile}`,
      );
    }
    try {
      const response = await fetch(`${options.url}${options.probePath}`, {
        signal: AbortSignal.timeout(2_000),
      });
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (since(start) > START_TIMEOUT_MS) {
      await stop();
      throw new Error(`${options.url} was not ready within ${START_TIMEOUT_MS} ms`);
    }
    await sleep(10);
  }
  return { url: options.url, process: child, readyAfterMs: since(start), stop };
}

/** Variables of the caller's shell that would change what the server child does. */
const INHERITED_OUT = [
  'DATABASE_URL',
  'DATA_DIR',
  'NODE_ENV',
  'JWT_SECRET',
  'KYC_HASH_KEY',
  'SEED_DEMO',
  'WEB_DIST',
  'LOG_LEVEL',
  'JOB_POLL_MS',
  'RATE_LIMIT_MAX',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
];

let serverBuild: Promise<ServerBuild> | undefined;
/** The server built once per bench run, in a directory removed when the run exits. */
function builtServer(): Promise<ServerBuild> {
  serverBuild ??= buildServerForRun().then((build) => {
    process.once('exit', () => rmSync(path.dirname(build.main), { recursive: true, force: true }));
    return build;
  });
  return serverBuild;
}

/**
 * Starts the real server on a free port and waits for GET /api/health to answer 200. The
 * defaults are production's (info logs, the worker ticking every second) except the rate
 * limit, which one load generator on one address would otherwise hit at once.
 */
export async function startRealServer(options: {
  env: Record<string, string>;
  logFile: string;
}): Promise<Child> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of INHERITED_OUT) delete env[name];
  Object.assign(env, {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    JWT_SECRET: BENCH_JWT_SECRET,
    KYC_HASH_KEY: BENCH_KYC_HASH_KEY,
    SEED_DEMO: 'false',
    RATE_LIMIT_MAX: '1000000000',
    ...options.env,
  });
  // BENCH_CPU_PROFILE=<dir>: the server child writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROFILE;
  return spawnAndWait({
    args: [
      ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`] : []),
      ...nodeArgsFor((await builtServer()).main),
    ],
    env,
    logFile: options.logFile,
    url,
    probePath: '/api/health',
  });
}

/** Starts bench/bare-server.mjs (plain Node, no loader) replaying the stored response. */
export async function startBareServer(options: {
  responseFile: string;
  logFile: string;
}): Promise<Child> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  return spawnAndWait({
    args: [path.join(ROOT, 'bench/bare-server.mjs'), options.responseFile, String(port)],
    env: { PATH: process.env.PATH },
    logFile: options.logFile,
    url,
    probePath: '/',
  });
}
