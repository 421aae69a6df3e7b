/**
 * The browser tests' warm servers. The global setup keeps server processes that have already
 * imported the server (server-process.ts); a test file that needs a server of its own leases
 * one: the pool copies the run's data template into a fresh DATA_DIR, has an idle process build
 * and start the app with the file's environment, and appends what the process prints to the
 * lease's log file. Releasing closes the app and deletes DATA_DIR, and the process waits for the
 * next file. A process that fails to open or close is stopped rather than reused.
 *
 * Test files run in other processes than the global setup, so they lease over HTTP on loopback.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, ROOT, START_TIMEOUT_MS, STOP_TIMEOUT_MS, serverEnv } from './server.ts';
import type { WarmServerCommand, WarmServerMessage, WarmServerStep } from './server-process.ts';

const STEP_TIMEOUT_MS = 60_000;

/** A server a test file leased: where it listens and where its log is written. */
export interface LeasedServer {
  lease: number;
  url: string;
  logFile: string;
}

class WarmProcess {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  private nextId = 0;
  private readonly waiting = new Map<number, (error?: string) => void>();
  private log: WriteStream | null = null;
  private printed = '';

  constructor(env: Record<string, string | undefined>) {
    this.child = spawn(process.execPath, ['--import', 'tsx', 'e2e/support/server-process.ts'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const record = (chunk: Buffer) => {
      if (this.log) this.log.write(chunk);
      else this.printed = (this.printed + chunk.toString('utf8')).slice(-10_000);
    };
    this.child.stdout?.on('data', record);
    this.child.stderr?.on('data', record);
    this.ready = new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`a warm test server did not start in ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      );
      this.child.on('message', (message: WarmServerMessage) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve();
        } else this.waiting.get(message.id)?.(message.error);
      });
      this.child.once('exit', (code, signal) => {
        clearTimeout(timer);
        const reason = `a warm test server exited (${code ?? signal}):\n${this.printed}`;
        reject(new Error(reason));
        for (const settle of this.waiting.values()) settle(reason);
      });
    });
    // An early exit is reported by the step that waits on it.
    this.ready.catch(() => {});
  }

  get exitCode(): number | null {
    return this.child.exitCode;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Sends a command and waits for its answer; a refusal or a timeout throws. */
  async run(command: WarmServerStep): Promise<void> {
    await this.ready;
    const id = ++this.nextId;
    const error = await new Promise<string | undefined>((resolve) => {
      const timer = setTimeout(
        () => resolve(`no answer to ${command.type} in ${STEP_TIMEOUT_MS} ms`),
        STEP_TIMEOUT_MS,
      );
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      const message: WarmServerCommand = { ...command, id };
      this.child.send(message);
    });
    this.waiting.delete(id);
    if (error) throw new Error(error);
  }

  logTo(file: string | null): Promise<void> {
    const previous = this.log;
    this.log = file ? createWriteStream(file, { flags: 'a' }) : null;
    return new Promise((resolve) => (previous ? previous.end(resolve) : resolve()));
  }

  async stop(): Promise<void> {
    if (this.alive) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    await this.logTo(null);
  }
}

interface Lease {
  warm: WarmProcess;
  dataDir: string;
  logFile: string;
}

/**
 * Starts the pool (one process warming up at once, more as files hold them) and the loopback
 * endpoint files lease from. `stop` stops every process and the endpoint.
 */
export async function startServerPool(options: {
  template: string;
  logDir: string;
}): Promise<{ url: string; stop(): Promise<void> }> {
  // The environment `npm start` has; each lease adds its own port, DATA_DIR and settings.
  const processEnv = serverEnv({ port: 0, dataDir: '', env: {} });
  for (const name of ['HOST', 'PORT', 'PUBLIC_URL', 'DATA_DIR']) delete processEnv[name];
  const idle: WarmProcess[] = [new WarmProcess(processEnv)];
  const everyProcess = new Set<WarmProcess>(idle);
  const leases = new Map<number, Lease>();
  let lastLease = 0;

  const takeProcess = (): WarmProcess => {
    const warm = idle.pop() ?? new WarmProcess(processEnv);
    everyProcess.add(warm);
    return warm;
  };
  const discard = async (warm: WarmProcess) => {
    everyProcess.delete(warm);
    await warm.stop();
  };

  const lease = async (env: Record<string, string>): Promise<LeasedServer> => {
    const warm = takeProcess();
    const id = ++lastLease;
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-e2e-'));
    const logFile = path.join(options.logDir, `lease-${id}.log`);
    try {
      await cp(options.template, dataDir, { recursive: true });
      const port = await freePort();
      await warm.logTo(logFile);
      await warm.run({ type: 'open', env: serverEnv({ port, dataDir, env }) });
      leases.set(id, { warm, dataDir, logFile });
      return { lease: id, url: `http://127.0.0.1:${port}`, logFile };
    } catch (error) {
      await discard(warm);
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    }
  };

  const release = async (id: number): Promise<void> => {
    const leased = leases.get(id);
    if (!leased) throw new Error(`no lease ${id}`);
    leases.delete(id);
    try {
      await leased.warm.run({ type: 'close' });
      await leased.warm.logTo(null);
      idle.push(leased.warm);
    } catch (error) {
      await discard(leased.warm);
      // A server whose close outlasted its shutdown timeout exits, as `npm start` does; the
      // file is done with it either way. Anything else is the pool's own failure.
      if (leased.warm.exitCode !== 1) throw error;
      const log = await readFile(leased.logFile, 'utf8').catch(() => '');
      console.warn(`e2e: a server did not close in time and exited:\n${log.slice(-2_000)}`);
    } finally {
      await rm(leased.dataDir, { recursive: true, force: true });
    }
  };

  const endpoint = createServer((request, response) => {
    readJson(request)
      .then(
        (body): Promise<LeasedServer | undefined> =>
          request.url === '/lease'
            ? lease(body.env as Record<string, string>)
            : release(body.lease as number).then(() => undefined),
      )
      .then(
        (result) => {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(result ?? {}));
        },
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(error instanceof Error ? error.message : String(error));
        },
      );
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const { port } = endpoint.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await new Promise((resolve) => endpoint.close(resolve));
      await Promise.all([...everyProcess].map((warm) => warm.stop()));
      await Promise.all(
        [...leases.values()].map(({ dataDir }) => rm(dataDir, { recursive: true, force: true })),
      );
    },
  };
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of request) text += chunk;
  return JSON.parse(text) as Record<string, unknown>;
}

async function ask<T>(poolUrl: string, route: string, body: unknown): Promise<T> {
  const response = await fetch(`${poolUrl}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`the e2e server pool refused ${route}: ${text}`);
  return JSON.parse(text) as T;
}

/** Leases a warm server started with `env` over the run's data template (test files). */
export function leaseServer(poolUrl: string, env: Record<string, string>): Promise<LeasedServer> {
  return ask<LeasedServer>(poolUrl, '/lease', { env });
}

/** Gives a leased server back: its app and DATA_DIR are closed and removed. */
export async function releaseServer(poolUrl: string, lease: number): Promise<void> {
  await ask(poolUrl, '/release', { lease });
}
