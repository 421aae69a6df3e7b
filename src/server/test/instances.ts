import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { nodeArgsFor } from '../../../scripts/build-server.ts';
import { TEST_JWT_SECRET, TEST_KYC_HASH_KEY } from './app.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const execFileAsync = promisify(execFile);

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  stdout: () => string;
  stderr: () => string;
  /** Both streams, in the order they arrived. */
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL, as a crashed machine: nothing is drained or released. */
  kill: () => Promise<void>;
  /** SIGTERM, as an orchestrator stopping it: resolves with the exit code once it is gone. */
  stop: () => Promise<number | null>;
}

export interface Instance extends ServerProcess {
  port: number;
  url: string;
}

/**
 * A throwaway DATA_DIR for a server process or script; without a `databaseUrl` it holds a copy
 * of the test run's migrated PGlite template when there is one (a fresh initdb takes seconds).
 * `cp` rather than `fs.cp`, whose walk of the template's thousand-odd files in JavaScript costs
 * more CPU than the copying.
 */
export async function newDataDir(databaseUrl: string | null): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-instance-'));
  const template = databaseUrl ? null : inject('pgliteTemplateDataDir');
  if (template) await execFileAsync('cp', ['-R', `${template}/.`, dataDir]);
  return dataDir;
}

/**
 * A real server process (the run's build of `src/server/main.ts`, as `npm start` runs it) with a
 * throwaway DATA_DIR, removed when it exits. Without a `databaseUrl` it runs on PGlite, started
 * from the test run's migrated template when there is one (a fresh initdb takes seconds).
 */
export async function spawnServer(
  databaseUrl: string | null,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const dataDir = await newDataDir(databaseUrl);
  const child = spawn(process.execPath, nodeArgsFor(inject('serverMain')), {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      KYC_HASH_KEY: TEST_KYC_HASH_KEY,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      // Other files share the test database: a server of theirs must not run their jobs.
      JOB_POLL_MS: '0',
      // Rate limits are shared through the database and these requests come from one address:
      // tests about limits set their own.
      RATE_LIMIT_MAX: '1000000',
      // Test files and these servers share one PostgreSQL and its 100 connections.
      DATABASE_POOL_SIZE: '4',
      WEB_DIST: path.join(dataDir, 'no-web-build'),
      ...inject('beaconEnv'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    output += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      void rm(dataDir, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    pid: child.pid ?? 0,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
    exited,
    kill: async () => {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (running()) child.kill('SIGTERM');
      return (await exited).code;
    },
  };
}

/**
 * A server process on a free port of its own, resolved once `/api/health/ready` answers 200
 * (it is killed, and the start fails with its output, if that takes over a minute).
 */
export async function startInstance(
  databaseUrl: string | null,
  env: Record<string, string> = {},
): Promise<Instance> {
  const port = await freePort();
  const server = await spawnServer(databaseUrl, { ...env, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.child.exitCode !== null)
      throw new Error(
        `the server exited with ${server.child.exitCode} while starting:\n${server.output()}`,
      );
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`the server was not ready after 60 s:\n${server.output()}`);
    }
    const status = await fetch(`${url}/api/health/ready`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return { ...server, port, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface Balancer {
  url: string;
  /** Requests sent to each backend so far, by port. */
  sent: Map<number, number>;
  add: (instance: Instance) => void;
  remove: (instance: Instance) => void;
  close: () => Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade']);
const HEALTH_CHECK_MS = 100;
const HEALTH_CHECK_TIMEOUT_MS = 1_000;
/** As HAProxy's `fall 2 rise 2` in deploy/haproxy.cfg: one slow answer does not flap a server. */
const FALL = 2;
const RISE = 2;

interface Backend {
  port: number;
  up: boolean;
  checking: boolean;
  /** Consecutive answers that disagree with `up`. */
  streak: number;
}

/**
 * A small round-robin load balancer, as HAProxy is configured in deploy/: it sends each request
 * to the next backend whose readiness checks (every 100 ms, one at a time) last said so, takes a
 * backend out after two failed checks and back after two good ones, never retries, and sets
 * X-Forwarded-For.
 */
export async function startBalancer(): Promise<Balancer> {
  const backends: Backend[] = [];
  const sent = new Map<number, number>();
  let next = 0;

  const judge = (backend: Backend, ready: boolean) => {
    backend.checking = false;
    if (ready === backend.up) {
      backend.streak = 0;
      return;
    }
    backend.streak += 1;
    if (backend.streak >= (backend.up ? FALL : RISE)) {
      backend.up = ready;
      backend.streak = 0;
    }
  };
  const checks = setInterval(() => {
    for (const backend of backends) {
      if (backend.checking) continue;
      backend.checking = true;
      fetch(`http://127.0.0.1:${backend.port}/api/health/ready`, {
        signal: AbortSignal.timeout(HEALTH_CHECK_TIMEOUT_MS),
      }).then(
        (response) => judge(backend, response.status === 200),
        () => judge(backend, false),
      );
    }
  }, HEALTH_CHECK_MS);

  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((request, response) => {
    const up = backends.filter((backend) => backend.up);
    const backend = up[next++ % Math.max(up.length, 1)];
    if (!backend) {
      response.writeHead(503).end('no backend');
      return;
    }
    sent.set(backend.port, (sent.get(backend.port) ?? 0) + 1);
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: backend.port,
        method: request.method,
        path: request.url,
        agent,
        headers: { ...request.headers, 'x-forwarded-for': request.socket.remoteAddress ?? '' },
      },
      (answer) => {
        // Hop-by-hop headers describe the instance's connection, not the client's: passing on
        // the instance's long keep-alive hint made clients reuse connections this proxy had
        // already closed (as HAProxy states its own, deploy/haproxy.cfg).
        const headers = Object.fromEntries(
          Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
        );
        response.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end('bad gateway');
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    add: (instance) => backends.push({ port: instance.port, up: true, checking: false, streak: 0 }),
    remove: (instance) => {
      const index = backends.findIndex((backend) => backend.port === instance.port);
      if (index >= 0) backends.splice(index, 1);
    },
    close: async () => {
      clearInterval(checks);
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
