/**
 * Global setup of the `web` project: the pool of real server processes the web test files lease
 * from (src/test/server.ts). Starting Node with the server's modules costs several times what
 * opening a database and building the app does, so a process is started once and serves file
 * after file: each lease gets a database holding the run's template data and nothing else, a
 * fresh DATA_DIR and an app built with the file's environment, all closed (or, for the PGlite,
 * put back to the template) when the file releases it. The pool grows
 * to as many processes as files hold at once (one per worker, more for files that start
 * several servers) and stops them all when the run ends.
 *
 * Test files reach the pool over HTTP on loopback (the test workers are not the processes'
 * parents); the pool drives each process over IPC.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import type { TestProject } from 'vitest/node';
import type {
  PoolAnswer,
  PoolRequest,
  ProcessCommand,
  ProcessMessage,
  ServerOpening,
} from './server-protocol.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where test files lease a real server (src/test/server-pool.ts). */
    testServerPool: string;
  }
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const START_TIMEOUT_MS = 50_000;
const STOP_TIMEOUT_MS = 10_000;
const LOG_LIMIT = 50_000;

class ServerProcess {
  readonly child: ChildProcess;
  /** What the process printed since its current lease began (or since it started). */
  log = '';
  private nextId = 0;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;

  constructor() {
    this.child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(HERE, 'server-process.ts')],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: 'test' },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
        // Structured clone over IPC: user rows carry Date and bigint (kobo) values.
        serialization: 'advanced',
      },
    );
    const record = (chunk: Buffer) => {
      this.log = (this.log + chunk.toString('utf8')).slice(-LOG_LIMIT);
    };
    this.child.stdout?.on('data', record);
    this.child.stderr?.on('data', record);
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        reject(new Error(`test server process did not start within ${START_TIMEOUT_MS} ms`));
      }, START_TIMEOUT_MS);
      this.child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`test server process exited (${code ?? signal})`));
        for (const { reject: fail } of this.pending.values()) {
          fail(new Error(`test server process exited (${code ?? signal})`));
        }
        this.pending.clear();
      });
      this.child.on('message', (message: ProcessMessage) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve();
          return;
        }
        const waiter = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (!waiter) return;
        if (message.ok) waiter.resolve(message.result);
        else waiter.reject(new Error(message.error));
      });
    });
    // Rejections surface through the lease that waits on it; none is left unhandled here.
    this.ready.catch(() => undefined);
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null && this.child.connected;
  }

  call(command: ProcessCommand, timeoutMs?: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (!this.alive) {
        reject(new Error('test server process is not running'));
        return;
      }
      this.nextId += 1;
      const id = this.nextId;
      const timer = timeoutMs
        ? setTimeout(() => {
            this.pending.delete(id);
            reject(new Error(`test server process did not answer ${command.type} in time`));
          }, timeoutMs)
        : undefined;
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.child.send({ ...command, id });
    });
  }

  /** Disconnects (the process closes what it serves and exits), killing it if it lingers. */
  async stop(): Promise<void> {
    if (this.alive) this.child.disconnect();
    const done = await Promise.race([
      this.exited.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_TIMEOUT_MS)),
    ]);
    if (!done) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }
}

class ServerPool {
  private readonly idle: ServerProcess[] = [];
  private readonly all = new Set<ServerProcess>();
  private readonly leases = new Map<number, ServerProcess>();
  private nextLease = 0;

  private async take(): Promise<ServerProcess> {
    while (this.idle.length > 0) {
      const reused = this.idle.pop() as ServerProcess;
      if (reused.alive) return reused;
      this.all.delete(reused);
    }
    const started = new ServerProcess();
    this.all.add(started);
    await started.ready.catch(async (error: unknown) => {
      this.all.delete(started);
      await started.stop();
      throw new Error(`${error instanceof Error ? error.message : String(error)}\n${started.log}`);
    });
    return started;
  }

  async lease(opening: ServerOpening): Promise<{ lease: number; origin: string; log: string }> {
    const server = await this.take();
    server.log = '';
    try {
      const origin = (await server.call({ type: 'open', opening }, START_TIMEOUT_MS)) as string;
      this.nextLease += 1;
      this.leases.set(this.nextLease, server);
      return { lease: this.nextLease, origin, log: server.log };
    } catch (error) {
      // A process that failed to open may hold half of it: never hand it out again.
      this.all.delete(server);
      await server.stop();
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      throw new Error(`${message}\n${server.log}`);
    }
  }

  server(lease: number): ServerProcess {
    const server = this.leases.get(lease);
    if (!server) throw new Error(`no test server holds lease ${lease}`);
    return server;
  }

  logOf(lease: number): string {
    return this.leases.get(lease)?.log ?? '';
  }

  /** Closes what the lease opened; the process then waits for the next file. */
  async release(lease: number): Promise<string> {
    const server = this.server(lease);
    this.leases.delete(lease);
    try {
      await server.call({ type: 'close' }, STOP_TIMEOUT_MS);
      this.idle.push(server);
    } catch {
      this.all.delete(server);
      await server.stop();
    }
    return server.log;
  }

  async stopAll(): Promise<void> {
    const servers = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    this.leases.clear();
    await Promise.all(servers.map((server) => server.stop()));
  }
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

async function handle(pool: ServerPool, body: PoolRequest): Promise<PoolAnswer> {
  try {
    switch (body.op) {
      case 'lease': {
        const { lease, origin, log } = await pool.lease(body.opening);
        return { ok: true, result: { lease, origin }, log };
      }
      case 'call': {
        const server = pool.server(body.lease);
        return { ok: true, result: await server.call(body.command), log: server.log };
      }
      case 'release':
        return { ok: true, result: null, log: await pool.release(body.lease) };
    }
  } catch (error) {
    return {
      ok: false,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      log: body.op === 'call' ? pool.logOf(body.lease) : '',
    };
  }
}

export default async function setup(project: TestProject) {
  const pool = new ServerPool();
  const http = createServer((request: IncomingMessage, response: ServerResponse) => {
    readBody(request)
      .then((raw) => handle(pool, deserialize(raw) as PoolRequest))
      .then((answer) => {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(serialize(answer));
      });
  });
  // A call may wait as long as its test lets it (the next e-mail, say).
  http.requestTimeout = 0;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  project.provide('testServerPool', `http://127.0.0.1:${port}`);
  return async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
    await pool.stopAll();
  };
}
