import { request } from 'node:http';
import { deserialize, serialize } from 'node:v8';
import { afterAll, beforeAll, inject } from 'vitest';
import type { UserRow } from '../server/test/factories.ts';
import type { PoolAnswer, PoolRequest, ServerCommand, UserOverrides } from './server-protocol.ts';

/**
 * The real Pluckers server for web component tests ("mock nothing of our own").
 *
 * `buildApp` runs in a child Node process (src/test/server-process.ts) rather than inside the
 * test file: the `web` project transforms every module it imports for the browser, and that
 * breaks server code (Vitest rewrites `new URL('./migrations', import.meta.url)` to resolve
 * against the page's location, so the migrations folder is lost), while happy-dom replaces
 * Node's fetch, AbortController, Blob, EventTarget and friends under the server's feet. The
 * child runs exactly what `npm start` runs, on a database of the file's own (a fresh PGlite
 * from the global setup's template, or the PostgreSQL test database), and the test file drives
 * it through the run's server pool (src/test/server-pool.ts) to arrange data with the same
 * factories the server tests use. The pool keeps the processes warm between files; each file
 * still gets its own database, DATA_DIR and app.
 *
 * Only type imports of server code here: this file is imported by tests under src/web, and the
 * web app itself never imports the server (scripts/check-boundaries.ts).
 */
export type { UserOverrides };

/** What a web test may read of an e-mail the server sent (needs `captureMail`). */
export interface CapturedMail {
  subject: string;
  text: string;
  /** The first stand-alone 6-digit number in the text, if any. */
  code: string | null;
}

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
  /** What the server process printed so far for this file, as of its last answer. */
  output(): string;
  /** Closes the file's app, database and DATA_DIR; the process goes back to the pool. */
  stop(): Promise<void>;
}

/** One request to the run's server pool (Node's http: happy-dom replaces fetch in web tests). */
function askPool(body: PoolRequest): Promise<PoolAnswer> {
  const pool = inject('testServerPool');
  if (!pool) throw new Error('the server pool was not started (src/test/server-pool.ts)');
  return new Promise((resolve, reject) => {
    const call = request(pool, { method: 'POST' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(deserialize(Buffer.concat(chunks)) as PoolAnswer));
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end(serialize(body));
  });
}

/** Leases a server from the run's pool; resolves once it listens. Prefer `testServerPerFile`. */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { captureMail?: boolean } = {},
): Promise<TestServer> {
  const databaseUrl = inject('testDatabaseUrl');
  const template = inject('pgliteTemplate');
  if (!databaseUrl && !template) {
    throw new Error('startTestServer(): the global setup prepared no database (web project?)');
  }
  const leased = await askPool({
    op: 'lease',
    opening: {
      databaseUrl,
      template,
      env: { ...inject('beaconEnv'), ...env },
      captureMail: options.captureMail ?? false,
    },
  });
  if (!leased.ok) throw new Error(`test server failed to start:\n${leased.error}\n${leased.log}`);
  const { lease, origin } = leased.result as { lease: number; origin: string };
  let log = leased.log;

  let stopping: Promise<void> | undefined;
  const call = async <T>(command: ServerCommand): Promise<T> => {
    if (stopping) throw new Error(`test server is stopped\n${log}`);
    const answer = await askPool({ op: 'call', lease, command });
    log = answer.log;
    if (!answer.ok) throw new Error(`test server: ${answer.error}\n${log}`);
    return answer.result as T;
  };

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
      stopping ??= askPool({ op: 'release', lease }).then((answer) => {
        log = answer.log;
        if (!answer.ok) throw new Error(`test server did not stop: ${answer.error}\n${log}`);
      });
      return stopping;
    },
  };
}

/**
 * One real server per test file: leased in beforeAll (a database, DATA_DIR and app of the file's
 * own), closed in afterAll. Returns a getter because the server only exists once beforeAll has
 * run. Called inside a describe block, the server is that block's: a file that needs servers
 * with different environments leases each for the tests that use it, and the pool then needs no
 * more processes than files run at once.
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
