/**
 * Child process behind src/test/server.ts: the real Pluckers server (`buildApp`) listening on
 * 127.0.0.1 with a random port, on a fresh PGlite loaded from the run's template (or on the
 * shared PostgreSQL test database), plus a tiny IPC channel the parent uses to arrange data
 * exactly as server tests do (factories, token signing, the notification service).
 *
 * Run as `node --import tsx src/test/server-process.ts` with an IPC channel; never imported.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { sessions, users } from '../server/db/schema.ts';
import { hashPassword } from '../server/modules/auth/passwords.ts';
import { notify } from '../server/modules/notifications/service.ts';
import { testEnv } from '../server/test/app.ts';
import { createUser, proveOperatorToken } from '../server/test/factories.ts';
import { startSmtpServer } from '../server/test/smtp.ts';
import type { ServerCommand, ServerMessage } from './server.ts';

function send(message: ServerMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  if (!process.send) throw new Error('server-process.ts must be started with an IPC channel');
  const databaseUrl = process.env.PLUCKERS_TEST_DATABASE_URL || undefined;
  const template = process.env.PLUCKERS_TEST_PGLITE_TEMPLATE || undefined;
  if (!databaseUrl && !template) throw new Error('neither a database URL nor a PGlite template');

  const database = databaseUrl
    ? await openDatabase({ databaseUrl, dataDir: '', poolSize: 5 })
    : await openDatabase({
        databaseUrl: undefined,
        dataDir: '',
        inMemory: true,
        loadDataDir: new Blob([await readFile(template as string)]),
      });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-web-test-'));
  const extraEnv = JSON.parse(process.env.PLUCKERS_TEST_ENV ?? '{}') as Record<string, string>;
  const smtp = process.env.PLUCKERS_TEST_CAPTURE_MAIL ? await startSmtpServer() : null;
  const mailEnv: Record<string, string> = smtp ? { SMTP_URL: smtp.url } : {};
  const app = await buildApp(loadConfig(testEnv({ DATA_DIR: dataDir, ...mailEnv, ...extraEnv })), {
    database,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await app.close();
      await smtp?.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    })();
    return stopping;
  };

  async function run(command: ServerCommand): Promise<unknown> {
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
      case 'stop':
        await stop();
        return null;
    }
  }

  process.on('message', (command: ServerCommand & { id: number }) => {
    run(command).then(
      (result) => {
        send({ type: 'result', id: command.id, ok: true, result });
        if (command.type === 'stop') process.disconnect();
      },
      (error: unknown) =>
        send({
          type: 'result',
          id: command.id,
          ok: false,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        }),
    );
  });
  // The parent went away (crash, Ctrl-C): never linger holding a port and a database.
  process.on('disconnect', () => {
    void stop().finally(() => process.exit(0));
  });

  send({ type: 'ready', origin: new URL(address).origin });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  send({ type: 'failed', error: message });
  console.error(`test server failed to start: ${message}`);
  process.exit(1);
});
