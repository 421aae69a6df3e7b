/**
 * Child process behind src/test/server-pool.ts: a Node process with the server's modules loaded
 * that serves one web test file at a time. For each file it gives a database holding the run's
 * template data and nothing else (a PGlite put back to the template, see `templateDatabase`, or
 * a pool on the shared PostgreSQL test database), builds the real Pluckers server (`buildApp`)
 * with the file's environment and listens on 127.0.0.1 with a random port; when the file is done
 * it closes the app, and the process waits for the next file. The pool drives it over IPC, also
 * to arrange data exactly as server tests do (factories, token signing, the notification
 * service).
 *
 * Run as `node --import tsx src/test/server-process.ts` with an IPC channel; never imported.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { type DatabaseHandle, openDatabase } from '../server/db/client.ts';
import { sessions, users } from '../server/db/schema.ts';
import { hashPassword } from '../server/modules/auth/passwords.ts';
import { notify } from '../server/modules/notifications/service.ts';
import { testEnv } from '../server/test/app.ts';
import { createUser, proveOperatorToken } from '../server/test/factories.ts';
import { startSmtpServer, type TestSmtpServer } from '../server/test/smtp.ts';
import type {
  ProcessCommand,
  ProcessMessage,
  ServerCommand,
  ServerOpening,
} from './server-protocol.ts';

function send(message: ProcessMessage): void {
  process.send?.(message);
}

interface Opened {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** Whether the file's database closes with its app (a PostgreSQL pool; not the kept PGlite). */
  ownDatabase: boolean;
  smtp: TestSmtpServer | null;
  dataDir: string;
}

/** What the template holds: every table's rows (binary COPY) and every sequence's position. */
interface TemplateSnapshot {
  tables: string[];
  rows: Array<{ table: string; copy: Blob }>;
  sequences: Array<{ sequence: string; lastValue: string | null }>;
}

/**
 * The process's PGlite: loaded from the template by its first file, and put back to the
 * template's data before each later file. Loading the template (untarring some 40 MB of data
 * directory and starting PostgreSQL) costs about a second of CPU; putting its rows back costs
 * about a tenth of that.
 */
interface KeptPglite {
  template: string;
  handle: DatabaseHandle;
  client: PGlite;
  snapshot: TemplateSnapshot;
  /** Whether a file has had it since it was loaded or last put back. */
  used: boolean;
}

let kept: KeptPglite | null = null;
let current: Opened | null = null;

function pgliteOf(handle: DatabaseHandle): PGlite {
  const client = (handle.db as unknown as { $client?: PGlite }).$client;
  if (!client || typeof client.exec !== 'function') throw new Error('not a PGlite database');
  return client;
}

async function takeSnapshot(client: PGlite): Promise<TemplateSnapshot> {
  const { rows: tables } = await client.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
      WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
  );
  const rows: TemplateSnapshot['rows'] = [];
  for (const { name } of tables) {
    const { rows: any } = await client.query(`SELECT 1 FROM ${name} LIMIT 1`);
    if (any.length === 0) continue;
    const result = await client.query(`COPY ${name} TO '/dev/blob' WITH (FORMAT binary)`);
    if (!result.blob) throw new Error(`COPY of ${name} gave no data`);
    rows.push({ table: name, copy: result.blob });
  }
  const { rows: sequences } = await client.query<{ sequence: string; lastValue: string | null }>(
    `SELECT format('%I.%I', schemaname, sequencename) AS sequence, last_value::text AS "lastValue"
       FROM pg_sequences`,
  );
  return { tables: tables.map(({ name }) => name), rows, sequences };
}

/**
 * Every table emptied and refilled with the template's rows and every sequence set where the
 * template left it, in one transaction; then the session's state (settings, advisory locks,
 * LISTEN, prepared statements, temporary tables) reset as on a new connection. Triggers (foreign
 * keys included) are off while the rows go back (`session_replication_role = replica`): the rows
 * are the template's, checked when they were written, and the ledger's triggers refuse both
 * emptying it and rows written other than by its posting function.
 */
async function putBackTemplate({ client, snapshot }: KeptPglite): Promise<void> {
  await client.transaction(async (tx) => {
    await tx.exec('SET LOCAL session_replication_role = replica');
    if (snapshot.tables.length > 0) await tx.exec(`TRUNCATE ${snapshot.tables.join(', ')}`);
    for (const { table, copy } of snapshot.rows) {
      await tx.query(`COPY ${table} FROM '/dev/blob' WITH (FORMAT binary)`, [], { blob: copy });
    }
    for (const { sequence, lastValue } of snapshot.sequences) {
      // A sequence the template never used gives its first value next, as in the template.
      await tx.query('SELECT setval($1::regclass, $2::bigint, $3)', [
        sequence,
        lastValue ?? '1',
        lastValue !== null,
      ]);
    }
  });
  await client.exec('DISCARD ALL');
}

/** The run's template data in the process's PGlite, as if just loaded from the template. */
async function templateDatabase(template: string): Promise<DatabaseHandle> {
  if (kept && kept.template === template) {
    if (kept.used) {
      try {
        await putBackTemplate(kept);
      } catch (error) {
        // A database that could not be put back is never handed out: load the template again.
        const broken = kept;
        kept = null;
        await broken.handle.close().catch(() => undefined);
        console.warn('test server: could not put the database back; loading it again', error);
        return templateDatabase(template);
      }
    }
    kept.used = true;
    return kept.handle;
  }
  if (kept) {
    const previous = kept;
    kept = null;
    await previous.handle.close();
  }
  const handle = await openDatabase({
    databaseUrl: undefined,
    dataDir: '',
    inMemory: true,
    loadDataDir: new Blob([await readFile(template)]),
  });
  try {
    const client = pgliteOf(handle);
    kept = { template, handle, client, snapshot: await takeSnapshot(client), used: true };
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

async function closeAll(opened: Partial<Opened>): Promise<void> {
  await opened.app?.close();
  await opened.smtp?.close();
  if (opened.ownDatabase) await opened.database?.close();
  if (opened.dataDir) await rm(opened.dataDir, { recursive: true, force: true });
}

async function open(opening: ServerOpening): Promise<string> {
  if (current) throw new Error('the test server is already serving a file');
  if (!opening.databaseUrl && !opening.template) {
    throw new Error('neither a database URL nor a PGlite template');
  }
  const ownDatabase = Boolean(opening.databaseUrl);
  const database = opening.databaseUrl
    ? await openDatabase({ databaseUrl: opening.databaseUrl, dataDir: '', poolSize: 5 })
    : await templateDatabase(opening.template as string);
  const opened: Partial<Opened> = { database, ownDatabase, smtp: null };
  try {
    opened.dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-web-test-'));
    opened.smtp = opening.captureMail ? await startSmtpServer() : null;
    const mailEnv: Record<string, string> = opened.smtp ? { SMTP_URL: opened.smtp.url } : {};
    const app = await buildApp(
      loadConfig(testEnv({ DATA_DIR: opened.dataDir, ...mailEnv, ...opening.env })),
      { database },
    );
    opened.app = app;
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    current = { app, database, ownDatabase, smtp: opened.smtp, dataDir: opened.dataDir };
    return new URL(address).origin;
  } catch (error) {
    await closeAll(opened);
    throw error;
  }
}

async function close(): Promise<void> {
  const opened = current;
  current = null;
  if (opened) await closeAll(opened);
}

function serving(): Opened {
  if (!current) throw new Error('the test server serves no file now');
  return current;
}

async function run(command: ServerCommand): Promise<unknown> {
  const { app, smtp } = serving();
  switch (command.type) {
    case 'createUser':
      return createUser(app.db, {
        ...command.overrides,
        ...(command.password ? { passwordHash: await hashPassword(command.password) } : {}),
      });
    case 'tokenFor': {
      const token = await app.tokens.sign(command.user);
      // An operator's token is proved with the second factor, as the console's prompt does.
      const [account] = await app.db
        .select({ id: users.id, email: users.email, role: users.role })
        .from(users)
        .where(eq(users.id, command.user.id));
      if (account?.role === 'admin') await proveOperatorToken(app, account, token);
      return token;
    }
    case 'ageSecondFactor':
      await app.db
        .update(sessions)
        .set({
          secondFactorAt: sql`${sessions.secondFactorAt} - make_interval(mins => ${command.minutes})`,
        })
        .where(eq(sessions.userId, command.userId));
      app.tokens.forgetUser(command.userId);
      return null;
    case 'notify':
      await notify(app.db, command.userId, command.title, command.message);
      return null;
    case 'waitForMail': {
      if (!smtp) throw new Error('start the test server with { captureMail: true }');
      const mail = await smtp.waitForMail(command.to);
      return { subject: mail.subject, text: mail.text, code: mail.code };
    }
  }
}

function answer(command: ProcessCommand): Promise<unknown> {
  switch (command.type) {
    case 'open':
      return open(command.opening);
    case 'close':
      return close();
    default:
      return run(command);
  }
}

process.on('message', (command: ProcessCommand & { id: number }) => {
  answer(command).then(
    (result) => send({ type: 'result', id: command.id, ok: true, result }),
    (error: unknown) =>
      send({
        type: 'result',
        id: command.id,
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
// The pool is done (end of the run) or went away (crash, Ctrl-C): never linger holding a port
// and a database.
process.on('disconnect', () => {
  void close()
    .then(() => kept?.handle.close())
    .finally(() => process.exit(0));
});

if (!process.send) throw new Error('server-process.ts must be started with an IPC channel');
send({ type: 'ready' });
