import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_MESSAGES, SIGNUP_MESSAGES } from '../../../shared/messages.ts';
import { oneTimeTokens, users } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { createUser, testClock, uniqueSuffix } from '../../test/factories.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';
import { CODE_MESSAGES } from './codes.ts';
import { COMMON_PASSWORD_MESSAGE } from './passwords.ts';
import { AUTH_MESSAGES } from './service.ts';

const database = testDatabasePerFile();
const PUBLIC_URL = 'http://pluckers.test';
const HOUR = 3_600_000;

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp?.close();
});

async function appWithMail(clock = testClock()): Promise<FastifyInstance> {
  return buildTestApp(database(), { SMTP_URL: smtp.url, PUBLIC_URL }, { clock });
}

function signup(overrides: Record<string, unknown> = {}) {
  const suffix = uniqueSuffix();
  return {
    fullname: 'Ada Lovelace',
    username: `ada_${suffix}`,
    email: `ada-${suffix}@example.test`,
    phoneNumber: '+2348012345678',
    password: 'Quiz-Master-2024',
    confirmPassword: 'Quiz-Master-2024',
    ageConfirmed: true,
    ...overrides,
  };
}

let ipCounter = 0;
/** A fresh client address per call: these tests are about rules, not the per-IP limits. */
function post(app: FastifyInstance, url: string, payload?: Record<string, unknown>) {
  ipCounter += 1;
  return app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: `10.1.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`,
  });
}

const register = (app: FastifyInstance, body: Record<string, unknown>) =>
  post(app, '/api/v1/auth/register', body);
const login = (app: FastifyInstance, email: string, password: string) =>
  post(app, '/api/v1/auth/login', { email, password });

describe('POST /auth/register: docs/product.md#validation rules, in order', () => {
  it('reports the first failing rule with the spec text, field after field', async () => {
    const app = await appWithMail();
    const valid = signup();
    const steps: Array<[Record<string, unknown>, string]> = [
      [{}, SIGNUP_MESSAGES.fullname],
      [{ fullname: '' }, SIGNUP_MESSAGES.fullname],
      [{ fullname: 'Ada' }, SIGNUP_MESSAGES.fullname],
      [{ fullname: '  Ada   ' }, SIGNUP_MESSAGES.fullname],
      [{ fullname: valid.fullname }, SIGNUP_MESSAGES.username],
      [{ fullname: valid.fullname, username: '' }, SIGNUP_MESSAGES.username],
      [{ fullname: valid.fullname, username: valid.username }, SIGNUP_MESSAGES.email],
      [{ fullname: valid.fullname, username: valid.username, email: '  ' }, SIGNUP_MESSAGES.email],
      [
        { fullname: valid.fullname, username: valid.username, email: valid.email },
        SIGNUP_MESSAGES.phoneNumber,
      ],
      [
        {
          fullname: valid.fullname,
          username: valid.username,
          email: valid.email,
          phoneNumber: valid.phoneNumber,
        },
        SIGNUP_MESSAGES.password,
      ],
      [
        {
          fullname: valid.fullname,
          username: valid.username,
          email: valid.email,
          phoneNumber: valid.phoneNumber,
          password: valid.password,
        },
        SIGNUP_MESSAGES.confirmPassword,
      ],
      [{ ...valid, confirmPassword: '' }, SIGNUP_MESSAGES.confirmPassword],
      [{ ...valid, confirmPassword: `${valid.password}x` }, SIGNUP_MESSAGES.mismatch],
    ];
    for (const [body, message] of steps) {
      const response = await register(app, body);
      expect({ body, status: response.statusCode, json: response.json() }).toEqual({
        body,
        status: 400,
        json: { message, statusCode: 400, code: 'VALIDATION_FAILED' },
      });
    }
    expect(await app.db.$count(users, eq(users.email, valid.email))).toBe(0);
    expect(smtp.mailTo(valid.email)).toHaveLength(0);
  });

  it('checks the e-mail format, the handle rules and the password strength', async () => {
    const app = await appWithMail();
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ email: 'not-an-email' }, RULE_MESSAGES.emailFormat],
      [{ email: 'ada@' }, RULE_MESSAGES.emailFormat],
      [{ username: 'ab' }, RULE_MESSAGES.usernameFormat],
      [{ username: 'a'.repeat(21) }, RULE_MESSAGES.usernameFormat],
      [{ username: 'ada lovelace' }, RULE_MESSAGES.usernameFormat],
      [{ username: 'ada-lovelace' }, RULE_MESSAGES.usernameFormat],
      [{ username: 'adá_love' }, RULE_MESSAGES.usernameFormat],
      [{ phoneNumber: 'call me' }, RULE_MESSAGES.phoneFormat],
      [{ password: 'Short1!', confirmPassword: 'Short1!' }, RULE_MESSAGES.passwordLength],
      [
        { password: 'password123', confirmPassword: 'password123' },
        COMMON_PASSWORD_MESSAGE,
        'BAD_REQUEST',
      ],
      [
        { password: 'QWERTYUIOP', confirmPassword: 'QWERTYUIOP' },
        COMMON_PASSWORD_MESSAGE,
        'BAD_REQUEST',
      ],
      [{ ageConfirmed: false }, RULE_MESSAGES.ageConfirmed],
    ];
    for (const [overrides, message, code = 'VALIDATION_FAILED'] of cases) {
      const body = signup(overrides);
      const response = await register(app, body);
      expect({ overrides, status: response.statusCode, json: response.json() }).toEqual({
        overrides,
        status: 400,
        json: { message, statusCode: 400, code },
      });
    }
  });

  it('accepts handles of 3 and 20 characters and stores them in lower case', async () => {
    const app = await appWithMail();
    const suffix = uniqueSuffix();
    const short = signup({ username: `Z${suffix.slice(0, 2)}` });
    const long = signup({ username: `Ada_${suffix}`.padEnd(20, '9') });
    expect((await register(app, short)).statusCode).toBe(201);
    expect((await register(app, long)).statusCode).toBe(201);

    const [stored] = await app.db
      .select({ handle: users.handle })
      .from(users)
      .where(eq(users.email, long.email));
    expect(stored?.handle).toBe(long.username.toLowerCase());
  });

  it('records the 18+ acknowledgement; the spec payload without it makes an account that must confirm first', async () => {
    const app = await appWithMail();
    const withAge = signup({ ageConfirmed: true });
    const { ageConfirmed: _omitted, ...withoutAge } = signup();
    const saidNo = signup({ ageConfirmed: false });
    expect((await register(app, withAge)).statusCode).toBe(201);
    // The original client sends the spec's payload, which has no ageConfirmed.
    expect((await register(app, withoutAge)).statusCode).toBe(201);
    expect((await register(app, saidNo)).json()).toEqual({
      message: RULE_MESSAGES.ageConfirmed,
      statusCode: 400,
      code: 'VALIDATION_FAILED',
    });

    const rows = await app.db
      .select({ email: users.email, ageConfirmedAt: users.ageConfirmedAt })
      .from(users)
      .where(sql`${users.email} in (${withAge.email}, ${withoutAge.email}, ${saidNo.email})`);
    expect(rows).toHaveLength(2);
    expect(rows).toContainEqual({ email: withAge.email, ageConfirmedAt: expect.any(Date) });
    // Like a Google sign-up: no money moves before POST /user/confirm-age (assertAgeConfirmed).
    expect(rows).toContainEqual({ email: withoutAge.email, ageConfirmedAt: null });
  });
});

describe('POST /auth/register: accounts', () => {
  it('answers 201, stores an argon2id hash and mails a link and a 6-digit code', async () => {
    const app = await appWithMail();
    const body = signup({ email: `Ada.Mixed-${uniqueSuffix()}@Example.test` });

    const response = await register(app, body);

    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.registered });
    const email = body.email.toLowerCase();
    const [row] = await app.db.select().from(users).where(eq(users.email, email));
    expect(row).toMatchObject({
      handle: body.username,
      fullname: body.fullname,
      phoneNumber: body.phoneNumber,
      emailVerifiedAt: null,
      role: 'player',
      tokenVersion: 0,
    });
    expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row?.passwordHash).not.toContain(body.password);

    const mail = await smtp.waitForMail(email);
    expect(mail.subject).toBe('Verify your e-mail address');
    expect(mail.headers.from).toContain('Pluckers');
    expect(mail.text).toContain(`${PUBLIC_URL}/auth/validate/${mail.validateToken}`);
    expect(mail.validateToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/auth/validate/${mail.validateToken}"`);
    expect(mail.html).toContain(mail.code);
  });

  it('refuses a taken handle with 409; a taken e-mail answers as new and its owner is told', async () => {
    const app = await appWithMail();
    const first = signup();
    expect((await register(app, first)).statusCode).toBe(201);
    await smtp.waitForMail(first.email);

    const sameEmail = await register(app, signup({ email: first.email.toUpperCase() }));
    expect(sameEmail.statusCode).toBe(201);
    expect(sameEmail.json()).toEqual({ message: AUTH_MESSAGES.registered });
    expect((await smtp.waitForMail(first.email)).subject).toBe(
      'Someone tried to sign up with your e-mail',
    );

    const sameHandle = await register(app, signup({ username: first.username.toUpperCase() }));
    expect(sameHandle.statusCode).toBe(409);
    expect(sameHandle.json()).toEqual({
      message: AUTH_MESSAGES.usernameTaken,
      statusCode: 409,
      code: 'CONFLICT',
    });

    // An account made elsewhere (admin, Google) holds its e-mail just the same.
    const existing = await createUser(app.db);
    const taken = await register(app, signup({ email: existing.email }));
    expect(taken.statusCode).toBe(201);
    expect((await smtp.waitForMail(existing.email)).validateToken).toBeNull();
    expect(await app.db.$count(users, eq(users.email, existing.email))).toBe(1);
  });

  it('creates the account even when the mail cannot be sent; the player can ask again', async () => {
    // Port 9 (discard) has no SMTP server: delivery fails, the sign-up does not.
    const clock = testClock();
    const app = await buildTestApp(
      database(),
      { SMTP_URL: 'smtp://127.0.0.1:9', PUBLIC_URL },
      { clock },
    );
    const body = signup();
    const response = await register(app, body);
    expect(response.statusCode).toBe(201);
    expect(await app.db.$count(users, eq(users.email, body.email))).toBe(1);
  });

  it('lets exactly one of two racing sign-ups for the same e-mail through', async () => {
    const app = await appWithMail();
    const email = `race-${uniqueSuffix()}@example.test`;
    const responses = await Promise.all([
      register(app, signup({ email })),
      register(app, signup({ email })),
      register(app, signup({ email })),
    ]);
    // All answer alike (sign-up never tells whether an e-mail has an account); one account.
    expect(responses.map((response) => response.statusCode)).toEqual([201, 201, 201]);
    expect(await app.db.$count(users, eq(users.email, email))).toBe(1);
  });

  it('still sends the verification mail when the sign-up code was just requested', async () => {
    const app = await appWithMail();
    const body = signup();
    // The player pressed Verify in the sign-up form, then submitted without entering the code.
    expect(
      (await post(app, '/api/v1/auth/resend-token/email', { email: body.email })).statusCode,
    ).toBe(200);
    await smtp.waitForMail(body.email);

    const response = await register(app, body);

    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.registered });
    const mail = await smtp.waitForMail(body.email);
    expect(mail.validateToken).toBeTruthy();
    // The mailed code is the live one; it verifies the new account.
    const verified = await post(app, '/api/v1/auth/verify-email', {
      email: body.email,
      otp: mail.code,
    });
    expect(verified.statusCode).toBe(200);
    expect((await login(app, body.email, body.password)).statusCode).toBe(200);
  });
});

describe('pre-signup e-mail verification by code', () => {
  it('makes an account registered with a verified e-mail start verified', async () => {
    const app = await appWithMail();
    const body = signup();

    const sent = await post(app, '/api/v1/auth/resend-token/email', { email: body.email });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({ message: AUTH_MESSAGES.codeSent });
    const mail = await smtp.waitForMail(body.email);
    expect(mail.subject).toBe('Your Pluckers verification code');
    expect(mail.validateToken).toBeNull();

    const wrong = await post(app, '/api/v1/auth/verify-email', {
      email: body.email,
      otp: mail.code === '000000' ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(CODE_MESSAGES.invalid);

    const verified = await post(app, '/api/v1/auth/verify-email', {
      email: body.email.toUpperCase(),
      otp: mail.code,
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ message: AUTH_MESSAGES.emailVerified });

    const registered = await register(app, body);
    expect(registered.statusCode).toBe(201);
    expect(registered.json()).toEqual({ message: AUTH_MESSAGES.registeredVerified });
    expect(smtp.mailTo(body.email)).toHaveLength(1);

    const loggedIn = await login(app, body.email, body.password);
    expect(loggedIn.statusCode).toBe(200);
    expect(loggedIn.json().data.user.email).toBe(body.email);
  });

  it('uses a code once, checks its format and tells the owner of a verified address instead', async () => {
    const app = await appWithMail();
    const email = `code-${uniqueSuffix()}@example.test`;
    await post(app, '/api/v1/auth/resend-token/email', { email });
    const { code } = await smtp.waitForMail(email);

    expect((await post(app, '/api/v1/auth/verify-email', { email, otp: code })).statusCode).toBe(
      200,
    );
    const again = await post(app, '/api/v1/auth/verify-email', { email, otp: code });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(CODE_MESSAGES.invalid);

    const badFormat = await post(app, '/api/v1/auth/verify-email', { email, otp: '12a456' });
    expect(badFormat.json()).toEqual({
      message: RULE_MESSAGES.otpFormat,
      statusCode: 400,
      code: 'VALIDATION_FAILED',
    });

    const owner = await createUser(app.db);
    const alike = await post(app, '/api/v1/auth/resend-token/email', { email: owner.email });
    expect(alike.statusCode).toBe(200);
    expect(alike.json()).toEqual({ message: AUTH_MESSAGES.codeSent });
    const notice = await smtp.waitForMail(owner.email);
    expect(notice.subject).toBe('Someone tried to sign up with your e-mail');
    expect(notice.code).toBeNull();
  });

  it('waits 60 s between two codes for the same address', async () => {
    const clock = testClock();
    const app = await appWithMail(clock);
    const email = `cooldown-${uniqueSuffix()}@example.test`;
    expect((await post(app, '/api/v1/auth/resend-token/email', { email })).statusCode).toBe(200);

    clock.advance(30_000);
    const early = await post(app, '/api/v1/auth/resend-token/email', { email });
    expect(early.statusCode).toBe(429);
    expect(early.json().message).toBe('Please wait 30 seconds before requesting another code');

    clock.advance(30_001);
    expect((await post(app, '/api/v1/auth/resend-token/email', { email })).statusCode).toBe(200);
    const [first, second] = [await smtp.waitForMail(email), await smtp.waitForMail(email)];
    expect(first?.code).toMatch(/^\d{6}$/);
    expect(second?.code).toMatch(/^\d{6}$/);
  });
});

describe('verification by link', () => {
  it('answers an access token once, and the account is verified', async () => {
    const app = await appWithMail();
    const body = signup();
    await register(app, body);
    const { validateToken } = await smtp.waitForMail(body.email);

    const unverified = await login(app, body.email, body.password);
    expect(unverified.statusCode).toBe(403);

    const validated = await app.inject({ url: `/api/v1/auth/validate-user/${validateToken}` });
    expect(validated.statusCode).toBe(200);
    const accessToken = validated.json().data.access_token;
    expect(accessToken).toEqual(expect.any(String));

    const me = await app.inject({
      url: '/api/v1/user',
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({
      email: body.email,
      username: `plucker_${body.username}`,
      fullname: body.fullname,
      hasSetPassword: true,
    });

    const replay = await app.inject({ url: `/api/v1/auth/validate-user/${validateToken}` });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({
      message: AUTH_MESSAGES.badLink,
      statusCode: 400,
      code: 'BAD_REQUEST',
    });

    expect((await login(app, body.email, body.password)).statusCode).toBe(200);
  });

  it('lets only one of two simultaneous uses of a link through', async () => {
    const app = await appWithMail();
    const body = signup();
    await register(app, body);
    const { validateToken } = await smtp.waitForMail(body.email);
    const url = `/api/v1/auth/validate-user/${validateToken}`;
    const answers = await Promise.all([app.inject({ url }), app.inject({ url })]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
  });

  it('refuses a link after 24 hours, and an unknown one', async () => {
    const clock = testClock();
    const app = await appWithMail(clock);
    const body = signup();
    await register(app, body);
    const { validateToken } = await smtp.waitForMail(body.email);

    clock.advance(25 * HOUR);
    const expired = await app.inject({ url: `/api/v1/auth/validate-user/${validateToken}` });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(AUTH_MESSAGES.badLink);
    expect((await login(app, body.email, body.password)).statusCode).toBe(403);

    const unknown = await app.inject({ url: `/api/v1/auth/validate-user/${'x'.repeat(43)}` });
    expect(unknown.statusCode).toBe(400);
  });

  it('re-sends the link on request, at most once a minute, answering alike inside the cooldown', async () => {
    const clock = testClock();
    const app = await appWithMail(clock);
    const body = signup();
    await register(app, body);
    const first = await smtp.waitForMail(body.email);
    const resend = () =>
      post(app, `/api/v1/auth/resend-token?email=${encodeURIComponent(body.email)}`);

    // Inside the cooldown: the same answer as always (it would tell that the account exists
    // and is unverified), and nothing is sent.
    const tooSoon = await resend();
    expect(tooSoon.statusCode).toBe(200);
    expect(tooSoon.json()).toEqual({ message: AUTH_MESSAGES.resent });
    await app.background.idle();
    expect(smtp.mailTo(body.email)).toHaveLength(1);
    // A resend inside the cooldown leaves no unsent link behind.
    const [user] = await app.db.select().from(users).where(eq(users.email, body.email));
    expect(await app.db.$count(oneTimeTokens, eq(oneTimeTokens.userId, user?.id ?? ''))).toBe(1);

    clock.advance(61_000);
    const resent = await resend();
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ message: AUTH_MESSAGES.resent });
    const second = await smtp.waitForMail(body.email);
    expect(second.validateToken).toBeTruthy();
    expect(second.validateToken).not.toBe(first.validateToken);
    expect(second.code).toMatch(/^\d{6}$/);

    clock.advance(10_000);
    const again = await resend();
    expect(again.statusCode).toBe(200);
    await app.background.idle();
    expect(smtp.mailTo(body.email)).toHaveLength(2);

    // The newest link replaces the older one.
    const stale = await app.inject({ url: `/api/v1/auth/validate-user/${first.validateToken}` });
    expect(stale.statusCode).toBe(400);
    const validated = await app.inject({
      url: `/api/v1/auth/validate-user/${second.validateToken}`,
    });
    expect(validated.statusCode).toBe(200);
  });

  it('answers the same to an unknown or already verified address, and sends nothing', async () => {
    const app = await appWithMail();
    const verified = await createUser(app.db);
    const unknown = `nobody-${uniqueSuffix()}@example.test`;
    for (const email of [verified.email, unknown]) {
      const response = await post(app, `/api/v1/auth/resend-token?email=${email}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ message: AUTH_MESSAGES.resent });
    }
    const missing = await post(app, '/api/v1/auth/resend-token');
    expect(missing.json()).toEqual({
      message: SIGNUP_MESSAGES.email,
      statusCode: 400,
      code: 'VALIDATION_FAILED',
    });
    await app.background.idle();
    expect(smtp.mailTo(verified.email)).toHaveLength(0);
    expect(smtp.mailTo(unknown)).toHaveLength(0);
  });
});
