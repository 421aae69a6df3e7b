import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { openDatabase } from './db/client.ts';
import { TEST_JWT_SECRET } from './test/app.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Started {
  child: ChildProcess;
  port: number;
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `node --import tsx src/server/main.ts` as `npm start` runs it, on a free port. */
async function startServer(): Promise<Started> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-main-'));
  onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
  const databaseUrl = inject('testDatabaseUrl');
  const template = inject('pgliteTemplate');
  if (!databaseUrl && template) {
    // Start from the run's migrated template rather than a new initdb: this test is about
    // stopping; restart.test.ts covers a first start on an empty DATA_DIR.
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
      PORT: String(port),
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      WEB_DIST: path.join(dataDir, 'no-web-build'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  const deadline = Date.now() + 45_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`the server exited with ${child.exitCode} before it was ready:\n${stderr}`);
    }
    const healthy = await fetch(`http://127.0.0.1:${port}/api/health`)
      .then((response) => response.status === 200)
      .catch(() => false);
    if (healthy) break;
    if (Date.now() > deadline) throw new Error(`the server did not become healthy:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, port, stdout: () => stdout, exited };
}

describe('the server process', () => {
  it('on SIGTERM finishes the request in flight, then exits with code 0', {
    timeout: 90_000,
  }, async () => {
    const { child, port, stdout, exited } = await startServer();

    // A request whose body is still arriving when the signal comes.
    const body = JSON.stringify({ note: 'x'.repeat(2000) });
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/nope',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      request.on('error', reject);
    });
    request.write(body.slice(0, 1000));
    await new Promise((resolve) => setTimeout(resolve, 300));

    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(child.exitCode, 'the server must wait for the request in flight').toBeNull();
    // New connections are no longer accepted.
    const refused = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(refused).toBe('refused');

    request.end(body.slice(1000));
    const answered = await response;
    expect(answered.status).toBe(404);
    expect(JSON.parse(answered.text)).toEqual({ message: expect.any(String), statusCode: 404 });

    expect(await exited).toEqual({ code: 0, signal: null });
    expect(stdout()).toContain('shutting down: finishing in-flight requests');
  });
});
