import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { decodeJwt, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema.ts';
import { ACCOUNT_STATE_TTL_MS } from '../../plugins/auth.ts';
import { buildTestApp, TEST_JWT_SECRET, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { createUser, testClock, type UserRow } from '../../test/factories.ts';
import { testPasswordHash } from '../../test/passwords.ts';

/** Tokens are server-side sessions the owner can end. */
const database = testDatabasePerFile();
const testApp = testAppPerFile(database);
const PASSWORD = 'Correct-Horse-Battery';
let passwordHash: string;
beforeAll(async () => {
  passwordHash = await testPasswordHash(PASSWORD);
});

let ipCounter = 0;
async function login(app: FastifyInstance, user: UserRow, userAgent = 'test-agent/1.0') {
  ipCounter += 1;
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: user.email, password: PASSWORD },
    headers: { 'user-agent': userAgent },
    remoteAddress: `10.9.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.accessToken as string;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const getUser = (app: FastifyInstance, token: string) =>
  app.inject({ url: '/api/v1/user', headers: bearer(token) });
const post = (app: FastifyInstance, url: string, token: string) =>
  app.inject({ method: 'POST', url, headers: bearer(token) });

describe('server-side sessions', () => {
  it('records a session for every login, with its device and address, and the token names it', async () => {
    const app = testApp();
    const user = await createUser(app.db, { passwordHash });
    const token = await login(app, user, 'Mozilla/5.0 (Linux; Android 14)');
    const { sid } = decodeJwt(token);
    expect(sid).toEqual(expect.any(String));
    const [row] = await app.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sid as string));
    expect(row).toMatchObject({
      userId: user.id,
      userAgent: 'Mozilla/5.0 (Linux; Android 14)',
      revokedAt: null,
    });
    expect(row?.ipAddress).toMatch(/^10\.9\./);
  });

  it('POST /auth/logout ends this token at once and leaves the other devices signed in', async () => {
    const app = testApp();
    const user = await createUser(app.db, { passwordHash });
    const phone = await login(app, user);
    const laptop = await login(app, user);
    expect((await getUser(app, phone)).statusCode).toBe(200);

    const response = await post(app, '/api/v1/auth/logout', phone);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'You have been logged out' });

    expect((await getUser(app, phone)).statusCode).toBe(401);
    expect((await post(app, '/api/v1/auth/logout', phone)).statusCode).toBe(401);
    expect((await getUser(app, laptop)).statusCode).toBe(200);
    const [row] = await app.db
      .select({ revokedAt: sessions.revokedAt })
      .from(sessions)
      .where(eq(sessions.id, decodeJwt(phone).sid as string));
    expect(row?.revokedAt).toBeInstanceOf(Date);
  });

  it('POST /auth/logout-all ends every token of the account, and a new login works', async () => {
    const app = testApp();
    const user = await createUser(app.db, { passwordHash });
    const other = await createUser(app.db, { passwordHash });
    const tokens = [await login(app, user), await login(app, user), await app.tokens.sign(user)];
    const bystander = await login(app, other);

    const response = await post(app, '/api/v1/auth/logout-all', tokens[0] as string);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'You have been logged out of all devices' });

    for (const token of tokens) expect((await getUser(app, token)).statusCode).toBe(401);
    expect((await getUser(app, bystander)).statusCode).toBe(200);
    expect((await getUser(app, await login(app, user))).statusCode).toBe(200);
  });

  it('refuses a correctly signed token whose session does not exist, or that names none', async () => {
    const app = testApp();
    const user = await createUser(app.db, { passwordHash });
    const key = new TextEncoder().encode(TEST_JWT_SECRET);
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ ver: user.tokenVersion, ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setIssuer('pluckers')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key);
    for (const token of [
      await sign({}),
      await sign({ sid: '00000000-0000-4000-8000-000000000000' }),
      await sign({ sid: 42 }),
    ]) {
      expect((await getUser(app, token)).statusCode).toBe(401);
    }
    // Another account's live session does not lend itself either.
    const other = await createUser(app.db, { passwordHash });
    const otherSid = decodeJwt(await app.tokens.sign(other)).sid;
    expect((await getUser(app, await sign({ sid: otherSid }))).statusCode).toBe(401);
  });

  it('honours a session revoked by another instance within ACCOUNT_STATE_TTL_MS', async () => {
    const clock = testClock();
    const app = await buildTestApp(database(), {}, { clock });
    const user = await createUser(app.db, { passwordHash });
    const token = await app.tokens.sign(user);
    expect((await getUser(app, token)).statusCode).toBe(200);

    await app.db
      .update(sessions)
      .set({ revokedAt: clock.now() })
      .where(eq(sessions.id, decodeJwt(token).sid as string));
    clock.advance(ACCOUNT_STATE_TTL_MS);
    expect((await getUser(app, token)).statusCode).toBe(401);
  });

  it('a password change ends the other sessions and keeps the one that changed it', async () => {
    const app = testApp();
    const user = await createUser(app.db, { passwordHash });
    const mine = await login(app, user);
    const other = await login(app, user);
    const newPassword = 'Another-Horse-Battery';
    const changed = await app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers: bearer(mine),
      payload: { currentPassword: PASSWORD, password: newPassword, confirmPassword: newPassword },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.accessToken).toBeUndefined();
    expect((await getUser(app, mine)).statusCode).toBe(200);
    expect((await getUser(app, other)).statusCode).toBe(401);
    const live = await app.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(live.filter((row) => row.revokedAt === null).map((row) => row.id)).toEqual([
      decodeJwt(mine).sid,
    ]);
  });
});
