/**
 * Child process behind src/test/server-pool.ts: a Node process with the server's modules loaded
 * that serves one web test file at a time. For each file it opens a fresh database (a PGlite
 * loaded from the run's template, or a pool on the shared PostgreSQL test database), builds the
 * real Pluckers server (`buildApp`) with the file's environment and listens on 127.0.0.1 with a
 * random port; when the file is done it closes all of it, and the process waits for the next
 * file. The pool drives it over IPC, also to arrange data exactly as server tests do
 * (factories, token signing, the notification service).
 *
 * Run as `node --import tsx src/test/server-process.ts` with an IPC channel; never imported.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  smtp: TestSmtpServer | null;
  dataDir: string;
}

/** The template read once per process: every file of the run starts from the same one. */
const templates = new Map<string, Blob>();

async function templateBlob(file: string): Promise<Blob> {
  let blob = templates.get(file);
  if (!blob) {
    blob = new Blob([await readFile(file)]);
    templates.set(file, blob);
  }
  return blob;
}

let current: Opened | null = null;

async function closeAll({ app, database, smtp, dataDir }: Partial<Opened>): Promise<void> {
  await app?.close();
  await smtp?.close();
  await database?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}

async function open(opening: ServerOpening): Promise<string> {
  if (current) throw new Error('the test server is already serving a file');
  if (!opening.databaseUrl && !opening.template) {
    throw new Error('neither a database URL nor a PGlite template');
  }
  const database = opening.databaseUrl
    ? await openDatabase({ databaseUrl: opening.databaseUrl, dataDir: '', poolSize: 5 })
    : await openDatabase({
        databaseUrl: undefined,
        dataDir: '',
        inMemory: true,
        loadDataDir: await templateBlob(opening.template as string),
      });
  const opened: Partial<Opened> = { database, smtp: null };
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
    current = { app, database, smtp: opened.smtp, dataDir: opened.dataDir };
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
  void close().finally(() => process.exit(0));
});

if (!process.send) throw new Error('server-process.ts must be started with an IPC channel');
send({ type: 'ready' });
