import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, pushSubscriptions, sessions, users } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createGame,
  createPlayer,
  createUser,
  play,
  testClock,
  type UserRow,
  uniqueSuffix,
} from '../../test/factories.ts';
import { testPasswordHash } from '../../test/passwords.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';

/**
 * The account's own changes through the real routes (src/server/modules/users/service.ts):
 * the e-mail change's refusals, and deletion, which strips the person and keeps the money
 * records. The pending-then-confirmed path and password guessing live in
 * account-security.test.ts.
 */
const database = testDatabasePerFile();
const PASSWORD = 'Correct-Horse-Battery';
let smtp: TestSmtpServer;
let passwordHash: string;
beforeAll(async () => {
  [smtp, passwordHash] = await Promise.all([startSmtpServer(), testPasswordHash(PASSWORD)]);
});
afterAll(async () => {
  await smtp?.close();
});

async function setup() {
  const clock = testClock('2026-06-01T12:00:00Z');
  const app = await buildTestApp(
    database(),
    { SMTP_URL: smtp.url, PUBLIC_URL: 'http://pluckers.test' },
    { clock },
  );
  return { app, clock };
}

let address = 0;
/** A sign-in from an address of its own, so parallel files never share a throttle. */
async function login(app: FastifyInstance, email: string, password = PASSWORD) {
  address += 1;
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    remoteAddress: `10.17.${Math.floor(address / 250)}.${address % 250}`,
  });
  return response;
}

/** Signed in through the login route, so the account has a real session. */
async function signedIn(app: FastifyInstance, user: UserRow) {
  const response = await login(app, user.email);
  expect(response.statusCode, response.body).toBe(200);
  return { authorization: `Bearer ${response.json().data.accessToken as string}` };
}

async function rowOf(app: FastifyInstance, id: string) {
  const [row] = await app.db.select().from(users).where(eq(users.id, id));
  if (!row) throw new Error('user vanished');
  return row;
}

function remove(app: FastifyInstance, headers: Record<string, string>, payload: object) {
  return app.inject({ method: 'DELETE', url: '/api/v1/user', headers, payload });
}

describe('changing the e-mail', () => {
  it('refuses an address another account has, leaves nothing pending and sends no code', async () => {
    const { app } = await setup();
    const user = await createUser(app.db, { passwordHash });
    const other = await createUser(app.db);
    const headers = await signedIn(app, user);

    const taken = await app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers,
      payload: { email: other.email.toUpperCase(), currentPassword: PASSWORD },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      message: 'An account with this e-mail already exists',
      statusCode: 409,
      code: 'CONFLICT',
    });
    expect(await rowOf(app, user.id)).toMatchObject({ email: user.email, pendingEmail: null });
    expect(smtp.mailTo(other.email)).toEqual([]);
  });

  it('treats its own address, in any case, as nothing to change', async () => {
    const { app } = await setup();
    const user = await createUser(app.db, { passwordHash });
    const headers = await signedIn(app, user);

    const same = await app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers,
      payload: { email: user.email.toUpperCase() },
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().message).toBe('Nothing to update');
    expect(same.json().data.user).toMatchObject({ email: user.email, pendingEmail: null });
  });

  it('refuses a code when no change is pending, and a cancel then leaves the e-mail alone', async () => {
    const { app } = await setup();
    const user = await createUser(app.db, { passwordHash });
    const headers = await signedIn(app, user);

    const confirm = await app.inject({
      method: 'POST',
      url: '/api/v1/user/email/confirm',
      headers,
      payload: { code: '123456' },
    });
    expect(confirm.statusCode).toBe(400);
    expect(confirm.json()).toEqual({
      message: 'Invalid or expired code',
      statusCode: 400,
      code: 'PROOF_REFUSED',
    });

    const cancel = await app.inject({
      method: 'DELETE',
      url: '/api/v1/user/email/pending',
      headers,
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({
      message: 'The e-mail change was cancelled',
      data: { user: { email: user.email, pendingEmail: null } },
    });
  });
});

describe('deleting the account', () => {
  it('strips everything personal, signs every session out and keeps the ledger', async () => {
    const { app, clock } = await setup();
    // ₦100 in, ₦100 spent on a game: an empty wallet with money records behind it.
    const user = await createPlayer(app.db, { kobo: 10_000n, overrides: { passwordHash } });
    const game = await createGame(app.db, { entryFee: 10_000n });
    expect((await play(app, user, game.id)).statusCode).toBe(201);
    const phone = await signedIn(app, user);
    const laptop = await signedIn(app, user);
    await app.db.insert(pushSubscriptions).values({
      userId: user.id,
      endpoint: `https://push.example.test/${uniqueSuffix()}`,
      p256dh: `B${'A'.repeat(86)}`,
      auth: 'AAAAAAAAAAAAAAAAAAAAAA',
    });
    const entriesBefore = await app.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, user.id));
    expect(entriesBefore.length).toBeGreaterThan(0);

    const deleted = await remove(app, phone, { password: PASSWORD });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ message: 'Your account has been deleted' });

    const compact = user.id.replaceAll('-', '').slice(0, 12);
    expect(await rowOf(app, user.id)).toMatchObject({
      handle: `deleted_${compact}`,
      fullname: 'Deleted player',
      email: `deleted-${user.id}@deleted.invalid`,
      phoneNumber: '',
      passwordHash: null,
      bankId: null,
      bankAccountNumber: null,
      bankAccountName: null,
      planId: null,
      deletedAt: clock.now(),
      tokenVersion: user.tokenVersion + 1,
      accountBalance: 0n,
    });
    const live = await app.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
    expect(live).toEqual([]);
    expect(
      await app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id)),
    ).toEqual([]);
    expect(
      await app.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id)),
    ).toEqual(entriesBefore);

    // Neither session nor the password opens the account any more.
    for (const headers of [phone, laptop]) {
      const me = await app.inject({ method: 'GET', url: '/api/v1/user', headers });
      expect(me.statusCode).toBe(401);
    }
    const again = await login(app, user.email);
    expect(again.statusCode).toBe(400);
    // The address is free for a new account.
    const fresh = await createUser(app.db, { email: user.email });
    expect(fresh.id).not.toBe(user.id);
  });

  it('refuses while the wallet holds money, and the account carries on as before', async () => {
    const { app } = await setup();
    const user = await createPlayer(app.db, { kobo: 1n, overrides: { passwordHash } });
    const headers = await signedIn(app, user);

    const refused = await remove(app, headers, { password: PASSWORD });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      message: 'Withdraw your balance before deleting your account',
      statusCode: 400,
      code: 'BAD_REQUEST',
    });
    expect(await rowOf(app, user.id)).toMatchObject({
      email: user.email,
      deletedAt: null,
      tokenVersion: user.tokenVersion,
    });
    expect((await app.inject({ method: 'GET', url: '/api/v1/user', headers })).statusCode).toBe(
      200,
    );
  });

  it('needs the password, checks it, and asks an account without one to set it first', async () => {
    const { app } = await setup();
    const user = await createUser(app.db, { passwordHash });
    const headers = await signedIn(app, user);

    const empty = await remove(app, headers, { password: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Enter your password');
    const wrong = await remove(app, headers, { password: 'not-my-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Your password is incorrect');
    expect((await rowOf(app, user.id)).deletedAt).toBeNull();

    // A Google sign-up has no password to prove itself with.
    const google = await createUser(app.db, { googleSub: `google-${uniqueSuffix()}` });
    const noPassword = await remove(app, await bearerFor(app, google), {
      password: 'anything-at-all',
    });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().message).toBe('Set a password on your account before deleting it');
    expect((await rowOf(app, google.id)).deletedAt).toBeNull();
  });
});
