import type { FastifyInstance } from 'fastify';
import { decodeJwt, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, SIGNUP_MESSAGES } from '../../../shared/messages.ts';
import { TEST_JWT_SECRET, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser, type UserRow, uniqueSuffix } from '../../test/factories.ts';
import { testPasswordHash } from '../../test/passwords.ts';
import { AUTH_MESSAGES } from './service.ts';

const database = testDatabasePerFile();
const testApp = testAppPerFile(database);
const PASSWORD = 'Correct-Horse-Battery';
let passwordHash: string;

beforeAll(async () => {
  // One argon2id hash shared by every account of this file, at the cheap test cost.
  passwordHash = await testPasswordHash(PASSWORD);
});

let ipCounter = 0;
function nextIp(): string {
  ipCounter += 1;
  return `10.2.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
}

function login(
  app: FastifyInstance,
  email: string,
  password: string,
  remoteAddress: string = nextIp(),
) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    remoteAddress,
  });
}

const getUser = (app: FastifyInstance, token: string) =>
  app.inject({ url: '/api/v1/user', headers: { authorization: `Bearer ${token}` } });

const playerWithPassword = (app: FastifyInstance, overrides: Partial<UserRow> = {}) =>
  createUser(app.db, { passwordHash, ...overrides });

describe('POST /auth/login', () => {
  it('answers data.accessToken and data.user for a verified account', async () => {
    const app = testApp();
    const user = await playerWithPassword(app);

    const response = await login(app, user.email.toUpperCase(), PASSWORD);

    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.accessToken).toEqual(expect.any(String));
    expect(data.user).toMatchObject({
      id: user.id,
      email: user.email,
      username: `plucker_${user.handle}`,
      fullname: user.fullname,
      hasSetPassword: true,
      isVerified: false,
      accountBalance: 0,
    });
    expect(data.user).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(data)).not.toContain('argon2');

    const me = await getUser(app, data.accessToken);
    expect(me.statusCode).toBe(200);
    expect(me.json().data.id).toBe(user.id);
  });

  it('answers 403 for an unverified account with the right password only', async () => {
    const app = testApp();
    const user = await playerWithPassword(app, { emailVerifiedAt: null });

    const right = await login(app, user.email, PASSWORD);
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual({
      message: AUTH_MESSAGES.unverified,
      statusCode: 403,
      code: 'EMAIL_UNVERIFIED',
    });

    const wrong = await login(app, user.email, 'Not-The-Password');
    expect(wrong.statusCode).toBe(400);
  });

  it('gives the same 400 for an unknown e-mail, a wrong password and a password-less account', async () => {
    const app = testApp();
    const user = await playerWithPassword(app);
    const googleOnly = await createUser(app.db, { passwordHash: null, googleSub: uniqueSuffix() });
    const deleted = await playerWithPassword(app, { deletedAt: new Date() });

    const answers = await Promise.all([
      login(app, `nobody-${uniqueSuffix()}@example.test`, PASSWORD),
      login(app, user.email, 'Wrong-Password-123'),
      login(app, googleOnly.email, PASSWORD),
      login(app, deleted.email, PASSWORD),
    ]);

    for (const answer of answers) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({
        message: ERROR_MESSAGES.invalidCredentials,
        statusCode: 400,
        code: 'BAD_REQUEST',
      });
    }
    // Byte for byte the same, headers that vary by request aside.
    const bodies = new Set(answers.map((answer) => answer.body));
    expect(bodies.size).toBe(1);
    const contentTypes = new Set(answers.map((answer) => answer.headers['content-type']));
    expect(contentTypes.size).toBe(1);
  });

  it('answers 423 with a message for a suspended account, and its tokens stop working', async () => {
    const app = testApp();
    const user = await playerWithPassword(app);
    const headers = await bearerFor(app, user);
    expect((await app.inject({ url: '/api/v1/user', headers })).statusCode).toBe(200);

    const admin = await createUser(app.db, { role: 'admin' });
    const suspended = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/users/${user.id}/suspend`,
      headers: await bearerFor(app, admin),
      payload: { reason: 'multiple accounts' },
    });
    expect(suspended.statusCode, suspended.body).toBe(200);

    const response = await login(app, user.email, PASSWORD);
    expect(response.statusCode).toBe(423);
    expect(response.json()).toEqual({
      message: `${AUTH_MESSAGES.suspended} Reason: multiple accounts.`,
      statusCode: 423,
      code: 'ACCOUNT_SUSPENDED',
    });
    expect((await app.inject({ url: '/api/v1/user', headers })).statusCode).toBe(401);

    // A wrong password says nothing about the suspension.
    expect((await login(app, user.email, 'Wrong-Password-123')).statusCode).toBe(400);
  });

  it('requires both fields with the spec texts', async () => {
    const app = testApp();
    const noEmail = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { password: PASSWORD },
    });
    expect(noEmail.json()).toEqual({
      message: SIGNUP_MESSAGES.email,
      statusCode: 400,
      code: 'VALIDATION_FAILED',
    });
    const noPassword = await login(app, 'someone@example.test', '');
    expect(noPassword.json()).toEqual({
      message: SIGNUP_MESSAGES.password,
      statusCode: 400,
      code: 'VALIDATION_FAILED',
    });
  });
});

describe('access tokens', () => {
  const key = new TextEncoder().encode(TEST_JWT_SECRET);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claimsOf = (user: UserRow) => ({ ver: user.tokenVersion });

  async function expectRefused(app: FastifyInstance, token: string) {
    const response = await getUser(app, token);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({
      message: 'Unauthorized',
      statusCode: 401,
      code: 'UNAUTHORIZED',
    });
  }

  it('accepts a well-formed token, so the refusals below are about what is wrong with each', async () => {
    const app = testApp();
    const user = await playerWithPassword(app);
    // Every token names its server-side session; this one borrows a live one of the user.
    const { sid } = decodeJwt(await app.tokens.sign(user));
    const token = await new SignJWT({ ...claimsOf(user), sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('pluckers')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    expect((await getUser(app, token)).statusCode).toBe(200);
  });

  it('refuses a token signed with another key', async () => {
    const app = testApp();
    const user = await playerWithPassword(app);
    const token = await new SignJWT(claimsOf(user))
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('pluckers')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-for-hs256'));
    await expectRefused(app, token);
  });

  it('refuses an unsigned alg:none token', async () => {
    const app = testApp();
    const user = await playerWithPassword(app);
    const now = Math.floor(Date.now() / 1000);
    const payload = encode({ sub: user.id, ver: 0, iss: 'pluckers', iat: now, exp: now + 3600 });
    for (const alg of ['none', 'None', 'NONE']) {
      const header = encode({ alg, typ: 'JWT' });
      await expectRefused(app, `${header}.${payload}.`);
    }
  });

  it('refuses another algorithm even with the right key (HS512)', async () => {
    const app = testApp();
    const user = await playerWithPassword(app);
    const token = await new SignJWT(claimsOf(user))
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(user.id)
      .setIssuer('pluckers')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(TEST_JWT_SECRET.repeat(2)));
    await expectRefused(app, token);
  });

  it('refuses an expired token', async () => {
    const app = testApp();
    const user = await playerWithPassword(app);
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT(claimsOf(user))
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('pluckers')
      .setIssuedAt(now - 8 * 24 * 3600)
      .setExpirationTime(now - 60)
      .sign(key);
    await expectRefused(app, token);
  });

  it('refuses a token without an issuer, subject or version, and a malformed header', async () => {
    const app = testApp();
    const user = await playerWithPassword(app);
    const sign = (build: (jwt: SignJWT) => SignJWT) =>
      build(new SignJWT(claimsOf(user)).setProtectedHeader({ alg: 'HS256' }))
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(key);
    await expectRefused(app, await sign((jwt) => jwt.setSubject(user.id)));
    await expectRefused(app, await sign((jwt) => jwt.setIssuer('pluckers')));
    const noVersion = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuer('pluckers')
      .setExpirationTime('1h')
      .sign(key);
    await expectRefused(app, noVersion);
    await expectRefused(app, 'not-a-jwt');
    const missingHeader = await app.inject({ url: '/api/v1/user' });
    expect(missingHeader.statusCode).toBe(401);
    const basic = await app.inject({
      url: '/api/v1/user',
      headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    });
    expect(basic.statusCode).toBe(401);
  });

  it('refuses the tokens of other sessions after a password change, and keeps the one that changed it', async () => {
    const app = testApp();
    const user = await playerWithPassword(app);
    const { accessToken } = (await login(app, user.email, PASSWORD)).json().data;
    const otherSession = (await login(app, user.email, PASSWORD)).json().data.accessToken;
    expect((await getUser(app, otherSession)).statusCode).toBe(200);

    const newPassword = 'Another-Horse-Battery';
    const changed = await app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers: { authorization: `Bearer ${accessToken}` },
      payload: { currentPassword: PASSWORD, password: newPassword, confirmPassword: newPassword },
    });
    expect(changed.statusCode, changed.body).toBe(200);

    await expectRefused(app, otherSession);
    expect((await getUser(app, accessToken)).statusCode).toBe(200);
    expect((await login(app, user.email, PASSWORD)).statusCode).toBe(400);
    const fresh = await login(app, user.email, newPassword);
    expect((await getUser(app, fresh.json().data.accessToken)).statusCode).toBe(200);
  });
});
