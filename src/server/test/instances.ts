import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_JWT_SECRET } from './app.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Instance {
  port: number;
  url: string;
  pid: number;
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL, as a crashed machine: nothing is drained or released. */
  kill: () => Promise<void>;
  /** SIGTERM, as an orchestrator stopping it: resolves with the exit code once it is gone. */
  stop: () => Promise<number | null>;
}

/**
 * One real server process (`node --import tsx src/server/main.ts`, as `npm start` runs it) on the
 * given PostgreSQL database, listening on a free port of its own; resolves once it is ready.
 */
export async function startInstance(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<Instance> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-instance-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      JWT_SECRET: TEST_JWT_SECRET,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(dataDir, 'no-web-build'),
      // Load generators in these tests come from one address.
      RATE_LIMIT_MAX: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      void rm(dataDir, { recursive: true, force: true });
      resolve({ code, signal });
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance exited while starting:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`instance not ready after 60 s:\n${output}`);
    }
    const status = await fetch(`${url}/api/health`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    url,
    pid: child.pid ?? 0,
    child,
    output: () => output,
    exited,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return (await exited).code;
    },
  };
}

export interface Balancer {
  url: string;
  /** Requests sent to each backend so far, by port. */
  sent: Map<number, number>;
  add: (instance: Instance) => void;
  remove: (instance: Instance) => void;
  close: () => Promise<void>;
}

const HEALTH_CHECK_MS = 100;

/**
 * A small round-robin load balancer, as HAProxy is configured in deploy/: it sends each request
 * to the next backend whose readiness check last passed (checked every 100 ms), never retries,
 * and sets X-Forwarded-For.
 */
export async function startBalancer(): Promise<Balancer> {
  const backends: Array<{ port: number; up: boolean }> = [];
  const sent = new Map<number, number>();
  let next = 0;

  const checks = setInterval(() => {
    for (const backend of backends)
      fetch(`http://127.0.0.1:${backend.port}/api/health/ready`, {
        signal: AbortSignal.timeout(HEALTH_CHECK_MS * 5),
      }).then(
        (response) => {
          backend.up = response.status === 200;
        },
        () => {
          backend.up = false;
        },
      );
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
        response.writeHead(answer.statusCode ?? 502, answer.headers);
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
    add: (instance) => backends.push({ port: instance.port, up: true }),
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
