import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, RULE_MESSAGES, SIGNUP_MESSAGES } from '../../../shared/messages.ts';
import { emailCodes, users } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { createUser, testClock, type UserRow, uniqueSuffix } from '../../test/factories.ts';
import { testPasswordHash } from '../../test/passwords.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';
import { CODE_MAX_ATTEMPTS, CODE_MESSAGES } from './codes.ts';
import { COMMON_PASSWORD_MESSAGE } from './passwords.ts';
import { AUTH_MESSAGES } from './service.ts';

const database = testDatabasePerFile();
const OLD_PASSWORD = 'Old-Password-2024';
const NEW_PASSWORD = 'Brand-New-Secret-77';
const MINUTE = 60_000;

let smtp: TestSmtpServer;
let oldHash: string;
beforeAll(async () => {
  [smtp, oldHash] = await Promise.all([startSmtpServer(), testPasswordHash(OLD_PASSWORD)]);
});
afterAll(async () => {
  await smtp?.close();
});

async function setup(options: { verified?: boolean } = {}) {
  const clock = testClock();
  const app = await buildTestApp(
    database(),
    { SMTP_URL: smtp.url, PUBLIC_URL: 'http://pluckers.test' },
    { clock },
  );
  const user = await createUser(app.db, {
    passwordHash: oldHash,
    ...(options.verified === false ? { emailVerifiedAt: null } : {}),
  });
  return { app, clock, user };
}

let ipCounter = 0;
function post(app: FastifyInstance, url: string, payload: Record<string, unknown>) {
  ipCounter += 1;
  return app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: `10.3.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`,
  });
}

const forgot = (app: FastifyInstance, email: string) =>
  post(app, '/api/v1/auth/forgot-password', { email });
const reset = (app: FastifyInstance, email: string, otp: string | null, password = NEW_PASSWORD) =>
  post(app, '/api/v1/auth/reset-password', { email, otp, password, confirmPassword: password });
const login = (app: FastifyInstance, email: string, password: string) =>
  post(app, '/api/v1/auth/login', { email, password });

/** A wrong code for `code`: the same shape, guaranteed different. */
const wrongCode = (code: string | null, n = 1) =>
  ((Number(code) + n) % 1_000_000).toString().padStart(6, '0');

async function requestCode(app: FastifyInstance, user: UserRow): Promise<string> {
  expect((await forgot(app, user.email)).statusCode).toBe(200);
  const mail = await smtp.waitForMail(user.email);
  expect(mail.subject).toBe('Reset your Pluckers password');
  if (!mail.code) throw new Error('the reset mail carries no code');
  return mail.code;
}

describe('POST /auth/forgot-password', () => {
  it('answers 200 with the same body for a known and an unknown e-mail; only the known one gets mail', async () => {
    const { app, user } = await setup();
    const unknown = `nobody-${uniqueSuffix()}@example.test`;

    const known = await forgot(app, user.email);
    const stranger = await forgot(app, unknown);

    expect(known.statusCode).toBe(200);
    expect(stranger.statusCode).toBe(200);
    expect(known.body).toBe(stranger.body);
    expect(known.json()).toEqual({ message: AUTH_MESSAGES.forgot });
    const mail = await smtp.waitForMail(user.email);
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.text).toContain('10 minutes');
    expect(smtp.mailTo(unknown)).toHaveLength(0);

    // Only a keyed hash of the code is stored.
    const [stored] = await app.db
      .select({ codeHash: emailCodes.codeHash })
      .from(emailCodes)
      .where(and(eq(emailCodes.email, user.email), eq(emailCodes.purpose, 'reset_password')));
    expect(stored?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.codeHash).not.toContain(mail.code);
  });

  it('sends at most one code a minute, answering alike inside the cooldown', async () => {
    const { app, clock, user } = await setup();
    const first = await requestCode(app, user);

    clock.advance(30_000);
    const early = await forgot(app, user.email);
    expect(early.statusCode).toBe(200);
    expect(early.json()).toEqual({ message: AUTH_MESSAGES.forgot });
    expect(smtp.mailTo(user.email)).toHaveLength(1);

    clock.advance(30_001);
    const second = await requestCode(app, user);
    expect(smtp.mailTo(user.email)).toHaveLength(2);

    // The newer code replaces the older one.
    if (first !== second) {
      const stale = await reset(app, user.email, first);
      expect(stale.statusCode).toBe(400);
      expect(stale.json().message).toBe(CODE_MESSAGES.invalid);
    }
    expect((await reset(app, user.email, second)).statusCode).toBe(200);
  });

  it('limits requests per e-mail with a clear 429', async () => {
    const { app, clock, user } = await setup();
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      expect((await forgot(app, user.email)).statusCode).toBe(200);
      // A minute apart, each request's mail has long gone before the next one comes.
      await app.background.idle();
      clock.advance(MINUTE);
    }
    const limited = await forgot(app, user.email);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      message: 'Too many attempts. Please try again in 15 minutes.',
      statusCode: 429,
      code: 'TOO_MANY_REQUESTS',
    });
    await app.background.idle();
    expect(smtp.mailTo(user.email)).toHaveLength(5);
  });
});

describe('POST /auth/reset-password', () => {
  it('sets the new password with the mailed code and revokes every older token', async () => {
    const { app, user } = await setup();
    const loggedIn = await login(app, user.email, OLD_PASSWORD);
    const oldToken = loggedIn.json().data.accessToken;
    const me = (token: string) =>
      app.inject({ url: '/api/v1/user', headers: { authorization: `Bearer ${token}` } });
    expect((await me(oldToken)).statusCode).toBe(200);

    const code = await requestCode(app, user);
    const response = await reset(app, user.email.toUpperCase(), code);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: AUTH_MESSAGES.reset });
    // A token issued before the password change is refused.
    expect((await me(oldToken)).statusCode).toBe(401);
    const withOld = await login(app, user.email, OLD_PASSWORD);
    expect(withOld.statusCode).toBe(400);
    expect(withOld.json().message).toBe(ERROR_MESSAGES.invalidCredentials);
    const withNew = await login(app, user.email, NEW_PASSWORD);
    expect(withNew.statusCode).toBe(200);
    expect((await me(withNew.json().data.accessToken)).statusCode).toBe(200);
  });

  it('uses a code once', async () => {
    const { app, user } = await setup();
    const code = await requestCode(app, user);
    expect((await reset(app, user.email, code)).statusCode).toBe(200);

    const replay = await reset(app, user.email, code, 'Attacker-Chosen-99');
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({
      message: CODE_MESSAGES.invalid,
      statusCode: 400,
      code: 'PROOF_REFUSED',
    });
    expect((await login(app, user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('lets only one of two simultaneous resets with the right code through', async () => {
    const { app, user } = await setup();
    const code = await requestCode(app, user);
    const answers = await Promise.all([
      reset(app, user.email, code, 'First-New-Password-1'),
      reset(app, user.email, code, 'Second-New-Password-2'),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const winner =
      answers[0]?.statusCode === 200 ? 'First-New-Password-1' : 'Second-New-Password-2';
    expect((await login(app, user.email, winner)).statusCode).toBe(200);
  });

  it('refuses a code after 10 minutes', async () => {
    const { app, clock, user } = await setup();
    const code = await requestCode(app, user);

    clock.advance(10 * MINUTE);
    const expired = await reset(app, user.email, code);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(CODE_MESSAGES.invalid);
    expect((await login(app, user.email, OLD_PASSWORD)).statusCode).toBe(200);

    const fresh = await requestCode(app, user);
    clock.advance(9 * MINUTE + 59_000);
    expect((await reset(app, user.email, fresh)).statusCode).toBe(200);
  });

  it('locks the code after 5 wrong guesses, even if the 6th is right', async () => {
    const { app, clock, user } = await setup();
    const code = await requestCode(app, user);

    const messages: string[] = [];
    for (let guess = 1; guess <= CODE_MAX_ATTEMPTS; guess += 1) {
      const response = await reset(app, user.email, wrongCode(code, guess));
      expect(response.statusCode).toBe(400);
      messages.push(response.json().message);
    }
    expect(messages).toEqual([
      CODE_MESSAGES.invalid,
      CODE_MESSAGES.invalid,
      CODE_MESSAGES.invalid,
      CODE_MESSAGES.invalid,
      CODE_MESSAGES.locked,
    ]);

    const right = await reset(app, user.email, code);
    expect(right.statusCode).toBe(400);
    expect(right.json()).toEqual({
      message: CODE_MESSAGES.locked,
      statusCode: 400,
      code: 'PROOF_REFUSED',
    });
    expect((await login(app, user.email, NEW_PASSWORD)).statusCode).toBe(400);
    expect((await login(app, user.email, OLD_PASSWORD)).statusCode).toBe(200);

    // A new code (after the cooldown) starts a fresh count.
    clock.advance(MINUTE);
    const next = await requestCode(app, user);
    expect((await reset(app, user.email, next)).statusCode).toBe(200);
  });

  it('counts reset guesses sent all at once: never more than 5 are checked', async () => {
    const { app, user } = await setup();
    const code = await requestCode(app, user);

    const guesses = Array.from({ length: 9 }, (_, i) => wrongCode(code, i + 1));
    const responses = await Promise.all(guesses.map((guess) => reset(app, user.email, guess)));
    expect(responses.every((response) => response.statusCode === 400)).toBe(true);

    const [row] = await app.db
      .select({ attempts: emailCodes.attempts })
      .from(emailCodes)
      .where(and(eq(emailCodes.email, user.email), eq(emailCodes.purpose, 'reset_password')));
    expect(row?.attempts).toBe(CODE_MAX_ATTEMPTS);
    const invalid = responses.filter((r) => r.json().message === CODE_MESSAGES.invalid);
    expect(invalid).toHaveLength(CODE_MAX_ATTEMPTS - 1);

    const right = await reset(app, user.email, code);
    expect(right.json().message).toBe(CODE_MESSAGES.locked);
  });

  it('checks the payload: code format, password rules, confirmation', async () => {
    const { app, user } = await setup();
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ otp: '12345' }, RULE_MESSAGES.otpFormat],
      [{ otp: 'abcdef' }, RULE_MESSAGES.otpFormat],
      [{ otp: undefined }, RULE_MESSAGES.otpFormat],
      [{ password: '' }, SIGNUP_MESSAGES.password],
      [{ password: 'short', confirmPassword: 'short' }, RULE_MESSAGES.passwordLength],
      [{ confirmPassword: '' }, SIGNUP_MESSAGES.confirmPassword],
      [{ confirmPassword: 'Something-Else-1' }, SIGNUP_MESSAGES.mismatch],
      [
        { password: 'iloveyou', confirmPassword: 'iloveyou' },
        COMMON_PASSWORD_MESSAGE,
        'BAD_REQUEST',
      ],
    ];
    for (const [overrides, message, code = 'VALIDATION_FAILED'] of cases) {
      const response = await post(app, '/api/v1/auth/reset-password', {
        email: user.email,
        otp: '123456',
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
        ...overrides,
      });
      expect({ overrides, json: response.json() }).toEqual({
        overrides,
        json: { message, statusCode: 400, code },
      });
    }
    // None of these spent one of the code's attempts.
    const code = await requestCode(app, user);
    expect((await reset(app, user.email, code)).statusCode).toBe(200);
  });

  it('refuses a code for another address and a reset without any code', async () => {
    const { app, user } = await setup();
    const other = await createUser(app.db, { passwordHash: oldHash });
    const code = await requestCode(app, user);

    const crossed = await reset(app, other.email, code);
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json().message).toBe(CODE_MESSAGES.invalid);
    expect((await login(app, other.email, OLD_PASSWORD)).statusCode).toBe(200);

    const nothing = await reset(app, `nobody-${uniqueSuffix()}@example.test`, '123456');
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toBe(CODE_MESSAGES.invalid);
  });

  it('verifies an unverified account: the code proves the address', async () => {
    const { app, user } = await setup({ verified: false });
    expect((await login(app, user.email, OLD_PASSWORD)).statusCode).toBe(403);
    const code = await requestCode(app, user);
    expect((await reset(app, user.email, code)).statusCode).toBe(200);
    expect((await login(app, user.email, NEW_PASSWORD)).statusCode).toBe(200);
    const [row] = await app.db
      .select({ verifiedAt: users.emailVerifiedAt, version: users.tokenVersion })
      .from(users)
      .where(eq(users.id, user.id));
    expect(row?.verifiedAt).toBeInstanceOf(Date);
    expect(row?.version).toBe(user.tokenVersion + 1);
  });
});

describe('sign-up codes (POST /auth/verify-email)', () => {
  it('locks after 5 wrong guesses even if the 6th is right', async () => {
    const { app } = await setup();
    const email = `brute-${uniqueSuffix()}@example.test`;
    expect((await post(app, '/api/v1/auth/resend-token/email', { email })).statusCode).toBe(200);
    const { code } = await smtp.waitForMail(email);

    for (let guess = 1; guess <= CODE_MAX_ATTEMPTS; guess += 1) {
      const response = await post(app, '/api/v1/auth/verify-email', {
        email,
        otp: wrongCode(code, guess),
      });
      expect(response.statusCode).toBe(400);
    }
    const right = await post(app, '/api/v1/auth/verify-email', { email, otp: code });
    expect(right.statusCode).toBe(400);
    expect(right.json().message).toBe(CODE_MESSAGES.locked);
  });

  it('counts guesses sent all at once: never more than 5 are checked', async () => {
    const { app } = await setup();
    const email = `burst-${uniqueSuffix()}@example.test`;
    await post(app, '/api/v1/auth/resend-token/email', { email });
    const { code } = await smtp.waitForMail(email);

    const guesses = Array.from({ length: 9 }, (_, i) => wrongCode(code, i + 1));
    const responses = await Promise.all(
      guesses.map((otp) => post(app, '/api/v1/auth/verify-email', { email, otp })),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(guesses.map(() => 400));
    const invalid = responses.filter((r) => r.json().message === CODE_MESSAGES.invalid);
    expect(invalid).toHaveLength(CODE_MAX_ATTEMPTS - 1);
    const [row] = await app.db
      .select({ attempts: emailCodes.attempts })
      .from(emailCodes)
      .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, 'verify_email')));
    expect(row?.attempts).toBe(CODE_MAX_ATTEMPTS);

    const right = await post(app, '/api/v1/auth/verify-email', { email, otp: code });
    expect(right.json().message).toBe(CODE_MESSAGES.locked);
  });
});
