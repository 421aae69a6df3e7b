import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, inject } from 'vitest';
import type { createUser, UserRow } from '../server/test/factories.ts';

/**
 * The real Pluckers server for web component tests ("mock nothing of our own").
 *
 * `buildApp` runs in a child Node process (src/test/server-process.ts) rather than inside the
 * test file: the `web` project transforms every module it imports for the browser, and that
 * breaks server code (Vitest rewrites `new URL('./migrations', import.meta.url)` to resolve
 * against the page's location, so the migrations folder is lost), while happy-dom replaces
 * Node's fetch, AbortController, Blob, EventTarget and friends under the server's feet. The
 * child runs exactly what `npm start` runs, on the database this run prepared (a fresh PGlite
 * from the global setup's template, or the PostgreSQL test database), and the parent drives it
 * over IPC to arrange data with the same factories the server tests use.
 *
 * Only type imports of server code here: this file is imported by tests under src/web, and the
 * web app itself never imports the server (scripts/check-boundaries.ts).
 */
export type UserOverrides = Parameters<typeof createUser>[1];

export type ServerCommand =
  | { type: 'createUser'; overrides?: UserOverrides; password?: string }
  | { type: 'tokenFor'; user: { id: string; tokenVersion: number } }
  | { type: 'notify'; userId: string; title: string; message: string }
  | { type: 'ageSecondFactor'; userId: string; minutes: number }
  | { type: 'waitForMail'; to: string }
  | { type: 'stop' };

/** What a web test may read of an e-mail the server sent (needs `captureMail`). */
export interface CapturedMail {
  subject: string;
  text: string;
  /** The first stand-alone 6-digit number in the text, if any. */
  code: string | null;
}

export type ServerMessage =
  | { type: 'ready'; origin: string }
  | { type: 'failed'; error: string }
  | { type: 'result'; id: number; ok: true; result: unknown }
  | { type: 'result'; id: number; ok: false; error: string };

export interface TestServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  origin: string;
  /**
   * A verified player (unique handle and e-mail), through src/server/test/factories.ts; with
   * `password`, one that can log in with it (hashed by the server as sign-up hashes).
   */
  createUser(overrides?: UserOverrides, options?: { password?: string }): Promise<UserRow>;
  /**
   * A bearer token exactly as a login would issue it (`app.tokens.sign`); an operator's also
   * proves the second factor (server/test/factories.ts `proveOperatorToken`).
   */
  tokenFor(user: Pick<UserRow, 'id' | 'tokenVersion'>): Promise<string>;
  /** Tells the user something through the notification service every feature uses. */
  notify(user: Pick<UserRow, 'id'>, title: string, message: string): Promise<void>;
  /**
   * Moves back the second-factor proof of every session of the operator by `minutes`, as if
   * it had been made that long ago (the server's clock is the real one).
   */
  ageSecondFactor(user: Pick<UserRow, 'id'>, minutes: number): Promise<void>;
  /**
   * The next e-mail to `to` (in order), from the SMTP capture the server sends through when
   * started with `captureMail` (src/server/test/smtp.ts, in the server process).
   */
  waitForMail(to: string): Promise<CapturedMail>;
  /** Everything the server process printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const START_TIMEOUT_MS = 50_000;
const STOP_TIMEOUT_MS = 10_000;
const LOG_LIMIT = 50_000;

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts a server process; resolves once it listens. Prefer `testServerPerFile` in test files. */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { captureMail?: boolean } = {},
): Promise<TestServer> {
  const databaseUrl = inject('testDatabaseUrl');
  const template = inject('pgliteTemplate');
  if (!databaseUrl && !template) {
    throw new Error('startTestServer(): the global setup prepared no database (web project?)');
  }

  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'server-process.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PLUCKERS_TEST_DATABASE_URL: databaseUrl ?? '',
      PLUCKERS_TEST_PGLITE_TEMPLATE: template ?? '',
      PLUCKERS_TEST_ENV: JSON.stringify({ ...inject('beaconEnv'), ...env }),
      PLUCKERS_TEST_CAPTURE_MAIL: options.captureMail ? 'true' : '',
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    // Structured clone over IPC: user rows carry Date and bigint (kobo) values.
    serialization: 'advanced',
  });

  let log = '';
  const record = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-LOG_LIMIT);
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);

  let nextId = 0;
  const pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (e: Error) => void }
  >();
  const gone = (reason: string) => {
    for (const { reject } of pending.values()) reject(new Error(`${reason}\n${log}`));
    pending.clear();
  };
  child.on('exit', (code, signal) => gone(`test server exited (${code ?? signal})`));

  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`test server did not start within ${START_TIMEOUT_MS} ms:\n${log}`));
    }, START_TIMEOUT_MS);
    const onExit = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`test server exited (${code ?? signal}) before it was ready:\n${log}`));
    };
    child.once('exit', onExit);
    child.on('message', (message: ServerMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(message.origin);
      } else if (message.type === 'failed') {
        clearTimeout(timer);
        child.off('exit', onExit);
        reject(new Error(`test server failed to start:\n${message.error}`));
      } else {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (!waiter) return;
        if (message.ok) waiter.resolve(message.result);
        else waiter.reject(new Error(`test server: ${message.error}`));
      }
    });
  });

  const call = <T>(command: ServerCommand): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (!child.connected) {
        reject(new Error(`test server is not running\n${log}`));
        return;
      }
      nextId += 1;
      pending.set(nextId, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...command, id: nextId });
    });

  let stopping: Promise<void> | undefined;
  return {
    origin,
    createUser: (overrides, options) =>
      call<UserRow>({ type: 'createUser', overrides, password: options?.password }),
    tokenFor: (user) =>
      call<string>({ type: 'tokenFor', user: { id: user.id, tokenVersion: user.tokenVersion } }),
    notify: (user, title, message) =>
      call<void>({ type: 'notify', userId: user.id, title, message }),
    ageSecondFactor: (user, minutes) =>
      call<void>({ type: 'ageSecondFactor', userId: user.id, minutes }),
    waitForMail: (to) => call<CapturedMail>({ type: 'waitForMail', to }),
    output: () => log,
    stop() {
      stopping ??= (async () => {
        if (child.connected) await call({ type: 'stop' }).catch(() => undefined);
        const done = await Promise.race([
          exited(child).then(() => true),
          new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_TIMEOUT_MS)),
        ]);
        if (!done) {
          child.kill('SIGKILL');
          await exited(child);
        }
      })();
      return stopping;
    },
  };
}

/**
 * One real server per test file: started in beforeAll, stopped in afterAll. Returns a getter
 * because the server only exists once beforeAll has run.
 */
export function testServerPerFile(
  env: Record<string, string> = {},
  options: { captureMail?: boolean } = {},
): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(env, options);
  });
  afterAll(async () => {
    await server?.stop();
    server = undefined;
  });
  return () => {
    if (!server) throw new Error('testServerPerFile(): the server starts in beforeAll');
    return server;
  };
}
