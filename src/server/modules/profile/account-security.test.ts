import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createUser,
  testClock,
  type UserRow,
  uniqueSuffix,
} from '../../test/factories.ts';
import { testPasswordHash } from '../../test/passwords.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';

/** A stolen token alone cannot take the account. */
const database = testDatabasePerFile();
const PASSWORD = 'Correct-Horse-Battery';
const NEW_PASSWORD = 'Another-Horse-Battery';
let smtp: TestSmtpServer;
let passwordHash: string;
beforeAll(async () => {
  [smtp, passwordHash] = await Promise.all([startSmtpServer(), testPasswordHash(PASSWORD)]);
});
afterAll(async () => {
  await smtp?.close();
});

async function setup(options: { password?: boolean } = {}) {
  const clock = testClock();
  const app = await buildTestApp(
    database(),
    { SMTP_URL: smtp.url, PUBLIC_URL: 'http://pluckers.test' },
    { clock },
  );
  const user = await createUser(app.db, options.password === false ? {} : { passwordHash });
  return { app, clock, user, headers: await bearerFor(app, user) };
}

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.7.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`;
};

const newAddress = () => `new-${uniqueSuffix()}@example.test`;

function putUser(
  app: FastifyInstance,
  headers: Record<string, string>,
  payload: Record<string, unknown>,
) {
  return app.inject({ method: 'PUT', url: '/api/v1/user', headers, payload });
}

function confirmEmail(app: FastifyInstance, headers: Record<string, string>, code: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/user/email/confirm',
    headers,
    payload: { code },
  });
}

function login(app: FastifyInstance, email: string, password: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    remoteAddress: nextIp(),
  });
}

async function rowOf(app: FastifyInstance, user: UserRow) {
  const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
  if (!row) throw new Error('user vanished');
  return row;
}

describe('changing the e-mail', () => {
  it('a stolen token alone cannot change the e-mail, so "change e-mail, reset password" cannot lock the owner out', async () => {
    const { app, user, headers } = await setup();
    const attacker = newAddress();

    const refused = await putUser(app, headers, { email: attacker });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      message: 'Enter your current password',
      statusCode: 400,
      code: 'PROOF_REFUSED',
    });
    const wrong = await putUser(app, headers, { email: attacker, currentPassword: 'guess-1234' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Your current password is incorrect');
    expect(await rowOf(app, user)).toMatchObject({ email: user.email, pendingEmail: null });

    // The attacker's next step: a reset code to "their" address. No account has it.
    const forgot = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: attacker },
      remoteAddress: nextIp(),
    });
    expect(forgot.statusCode).toBe(200);
    const owner = await login(app, user.email, PASSWORD);
    expect(owner.statusCode, owner.body).toBe(200);
    expect(smtp.mailTo(attacker)).toEqual([]);
  });

  it('with the password, the new address is only pending until the code sent to it comes back', async () => {
    const { app, user, headers } = await setup();
    const target = newAddress();

    const asked = await putUser(app, headers, { email: target, currentPassword: PASSWORD });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().message).toBe(
      `We sent a code to ${target}. Enter it to finish changing your e-mail.`,
    );
    expect(asked.json().data.user).toMatchObject({ email: user.email, pendingEmail: target });
    expect(await rowOf(app, user)).toMatchObject({ email: user.email, pendingEmail: target });

    const toNew = await smtp.waitForMail(target);
    expect(toNew.code).toMatch(/^\d{6}$/);
    const warning = await smtp.waitForMail(user.email);
    expect(warning.subject).toBe('Someone asked to change your Pluckers e-mail');
    expect(warning.text).toContain(target);
    expect(warning.code).toBeNull();

    // Until confirmed, everything uses the old address.
    expect((await login(app, target, PASSWORD)).statusCode).toBe(400);
    expect((await login(app, user.email, PASSWORD)).statusCode).toBe(200);

    const wrongCode = await confirmEmail(
      app,
      headers,
      toNew.code === '000000' ? '111111' : '000000',
    );
    expect(wrongCode.statusCode).toBe(400);
    const confirmed = await confirmEmail(app, headers, toNew.code as string);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({
      message: 'Your e-mail has been changed',
      data: { user: { email: target, pendingEmail: null } },
    });
    expect(await rowOf(app, user)).toMatchObject({ email: target, pendingEmail: null });
    expect((await rowOf(app, user)).emailVerifiedAt).toBeInstanceOf(Date);
    const told = await smtp.waitForMail(user.email);
    expect(told.subject).toBe('Your Pluckers e-mail was changed');
    expect((await login(app, target, PASSWORD)).statusCode).toBe(200);
    expect((await login(app, user.email, PASSWORD)).statusCode).toBe(400);
    // A code works once.
    expect((await confirmEmail(app, headers, toNew.code as string)).statusCode).toBe(400);
  });

  it('checks the new address is still free when the code comes back', async () => {
    const { app, user, headers } = await setup();
    const target = newAddress();
    expect(
      (await putUser(app, headers, { email: target, currentPassword: PASSWORD })).statusCode,
    ).toBe(200);
    const { code } = await smtp.waitForMail(target);
    await createUser(app.db, { email: target });

    const late = await confirmEmail(app, headers, code as string);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({
      message: 'An account with this e-mail already exists',
      statusCode: 409,
      code: 'CONFLICT',
    });
    expect((await rowOf(app, user)).email).toBe(user.email);
  });

  it('phone and username change without a password; the password needs the current one', async () => {
    const { app, user, headers } = await setup();
    const handle = `h_${uniqueSuffix()}`.slice(0, 20);
    const simple = await putUser(app, headers, { phoneNumber: '+2348099999999', username: handle });
    expect(simple.statusCode, simple.body).toBe(200);
    expect(await rowOf(app, user)).toMatchObject({ phoneNumber: '+2348099999999', handle });

    const noProof = await putUser(app, headers, {
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(noProof.statusCode).toBe(400);
    expect(noProof.json().message).toBe('Enter your current password');
  });

  it('an account without a password proves itself with a code e-mailed to its current address', async () => {
    const { app, user, headers } = await setup({ password: false });
    const target = newAddress();

    const noCode = await putUser(app, headers, { email: target });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().message).toBe('Enter the 6-digit code we sent to your e-mail');
    const setPassword = await putUser(app, headers, {
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(setPassword.statusCode).toBe(400);

    const sent = await app.inject({ method: 'POST', url: '/api/v1/user/step-up-code', headers });
    expect(sent.statusCode, sent.body).toBe(200);
    const { code } = await smtp.waitForMail(user.email);
    expect(code).toMatch(/^\d{6}$/);
    // The next code only after the cooldown.
    const again = await app.inject({ method: 'POST', url: '/api/v1/user/step-up-code', headers });
    expect(again.statusCode).toBe(429);

    const changed = await putUser(app, headers, {
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
      code,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.user.hasSetPassword).toBe(true);
    expect((await login(app, user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('an account with a password does not get step-up codes', async () => {
    const { app, headers } = await setup();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/user/step-up-code',
      headers,
    });
    expect(response.statusCode).toBe(400);
  });

  it('a pending change can be cancelled', async () => {
    const { app, user, headers } = await setup();
    const target = newAddress();
    await putUser(app, headers, { email: target, currentPassword: PASSWORD });
    const { code } = await smtp.waitForMail(target);
    const cancelled = await app.inject({
      method: 'DELETE',
      url: '/api/v1/user/email/pending',
      headers,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data.user.pendingEmail).toBeNull();
    expect((await confirmEmail(app, headers, code as string)).statusCode).toBe(400);
    expect((await rowOf(app, user)).email).toBe(user.email);
  });
});

describe('current-password guessing (finding 4)', () => {
  it('after five wrong guesses the sixth is refused with 429, even with the right password, until the wait ends', async () => {
    const { app, clock, user, headers } = await setup();
    const change = (currentPassword: string) =>
      putUser(app, headers, {
        currentPassword,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
    for (let guess = 1; guess <= 5; guess += 1) {
      const wrong = await change(`wrong-guess-${guess}`);
      expect(wrong.statusCode, `guess ${guess}`).toBe(400);
    }
    const blocked = await change(PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many wrong attempts\. Please try again in/);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The block covers every route that takes the password.
    const deletion = await app.inject({
      method: 'DELETE',
      url: '/api/v1/user',
      headers,
      payload: { password: PASSWORD },
    });
    expect(deletion.statusCode).toBe(429);
    expect((await rowOf(app, user)).passwordHash).toBe(passwordHash);

    clock.advance(Number(blocked.headers['retry-after']) * 1000);
    const allowed = await change(PASSWORD);
    expect(allowed.statusCode, allowed.body).toBe(200);
  });

  it('wrong guesses on DELETE /user count too, and waits double', async () => {
    const { app, clock, headers } = await setup();
    const remove = (password: string) =>
      app.inject({ method: 'DELETE', url: '/api/v1/user', headers, payload: { password } });
    for (let guess = 1; guess <= 5; guess += 1) {
      const wrong = await remove(`wrong-${guess}`);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe('Your password is incorrect');
    }
    const first = await remove('wrong-6');
    expect(first.statusCode).toBe(429);
    const firstWait = Number(first.headers['retry-after']);
    clock.advance(firstWait * 1000);
    expect((await remove('wrong-7')).statusCode).toBe(400);
    const second = await remove('wrong-8');
    expect(second.statusCode).toBe(429);
    expect(Number(second.headers['retry-after'])).toBe(firstWait * 2);
  });
});
