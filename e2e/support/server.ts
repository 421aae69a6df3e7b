import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeArgsFor } from '../../scripts/build-server.ts';

/** The repository, where test servers run from; and how long one may take to start and stop. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const START_TIMEOUT_MS = 60_000;
export const STOP_TIMEOUT_MS = 10_000;
const LOG_LIMIT = 200_000;

export interface RunningServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:41234 */
  url: string;
  dataDir: string;
  /** Everything the server wrote to stdout and stderr so far (the tail, for long runs). */
  output(): string;
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface StartServerOptions {
  /** The built server to run (scripts/build-server.ts), as `npm start` runs it. */
  serverMain: string;
  /** Extra environment variables (they win over the defaults below). */
  env?: Record<string, string>;
  /**
   * A DATA_DIR left by an earlier server run (see `createDataTemplate`), copied into the new
   * temporary DATA_DIR so the server skips creating, migrating and seeding a database.
   */
  template?: string;
  /** Keep DATA_DIR when the server stops (for making a template). */
  keepDataDir?: boolean;
  /** Also writes the server's output to this file, for test files in other processes. */
  logFile?: string;
}

/**
 * The environment a test server runs with, as `npm start` on a machine would have it: a secret
 * generated in DATA_DIR, the embedded database, demo games, whatever the caller's shell (or
 * Vitest, which sets NODE_ENV=test) has, unless `env` names them. No drain delay: a file stops
 * its server once nothing is in flight, and the delay is for a load balancer to notice.
 */
export function serverEnv(options: {
  port: number;
  dataDir: string;
  env: Record<string, string>;
}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(options.port),
    PUBLIC_URL: `http://127.0.0.1:${options.port}`,
    DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
    SHUTDOWN_DELAY_MS: '0',
    ...options.env,
  };
  for (const name of ['NODE_ENV', 'JWT_SECRET', 'DATABASE_URL', 'SEED_DEMO', 'WEB_DIST']) {
    if (!(name in options.env)) delete env[name];
  }
  return env;
}

/**
 * Starts the real server (the run's build of `src/server/main.ts`) on a free port with its own
 * embedded database in a temporary DATA_DIR, and waits until GET /api/health answers 200.
 * `stop()` sends SIGTERM, waits for the exit and deletes DATA_DIR.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const extraEnv = options.env ?? {};
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-e2e-'));
  if (options.template) await cp(options.template, dataDir, { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;

  const env = serverEnv({ port, dataDir, env: extraEnv });

  let log = '';
  const logFile = options.logFile ? createWriteStream(options.logFile, { flags: 'a' }) : null;
  const record = (chunk: Buffer) => {
    log += chunk.toString('utf8');
    if (log.length > LOG_LIMIT) log = log.slice(-LOG_LIMIT);
    logFile?.write(chunk);
  };
  const child = spawn(process.execPath, nodeArgsFor(options.serverMain), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const done = await Promise.race([exited(child).then(() => true), sleep(STOP_TIMEOUT_MS)]);
      if (!done) {
        child.kill('SIGKILL');
        await exited(child);
      }
    }
    if (!options.keepDataDir) await rm(dataDir, { recursive: true, force: true });
    await new Promise<void>((resolve) => (logFile ? logFile.end(resolve) : resolve()));
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(
        `The server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${log}`,
      );
    }
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `The server did not answer /api/health within ${START_TIMEOUT_MS} ms:\n${log}`,
      );
    }
    await sleep(100);
  }

  return { url, dataDir, output: () => log, stop };
}

/**
 * Runs the real server once on an empty DATA_DIR (creating the database, migrating and seeding
 * it, as a first `npm start` does) and stops it cleanly. Each test file's server then starts
 * from a copy of that directory, which takes seconds less than an empty one.
 */
export async function createDataTemplate(
  serverMain: string,
): Promise<{ dir: string; remove(): Promise<void> }> {
  const server = await startServer({ serverMain, keepDataDir: true });
  await server.stop();
  return {
    dir: server.dataDir,
    remove: () => rm(server.dataDir, { recursive: true, force: true }),
  };
}
