import { eq, like } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '../../../shared/messages.ts';
import { authThrottles, knownLoginAddresses, sessions } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { createUser, testClock, uniqueSuffix } from '../../test/factories.ts';
import { testPasswordHash } from '../../test/passwords.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';

const database = testDatabasePerFile();
const PASSWORD = 'Correct-Horse-Battery';
const NEW_PASSWORD = 'Another-Horse-Battery-9';
const MINUTE = 60_000;

let passwordHash: string;
let smtp: TestSmtpServer;
beforeAll(async () => {
  // One argon2id hash shared by every account of this file, at the cheap test cost.
  [passwordHash, smtp] = await Promise.all([testPasswordHash(PASSWORD), startSmtpServer()]);
});
afterAll(async () => {
  await smtp?.close();
});

/** Addresses of this test run only, so parallel files never share a throttle key. */
let subnet = 0;
function freshSubnet(): (host: number) => string {
  subnet += 1;
  const base = `${(Number.parseInt(uniqueSuffix().slice(0, 2), 16) % 200) + 20}.${subnet % 250}`;
  return (host: number) => `${base}.${Math.floor(host / 250) % 250}.${(host % 250) + 1}`;
}

function login(app: FastifyInstance, email: string, password: string, remoteAddress: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email, password },
    remoteAddress,
  });
}

const player = (app: FastifyInstance) => createUser(app.db, { passwordHash });

describe('password login limits: guessing is slowed, the owner is never locked out', () => {
  it("lets the owner in from a known address through a stranger's 200 wrong guesses", async () => {
    const clock = testClock();
    const app = await buildTestApp(database(), { SMTP_URL: smtp.url }, { clock });
    const owner = await player(app);
    const home = freshSubnet()(7);
    expect((await login(app, owner.email, PASSWORD, home)).statusCode).toBe(200);

    // 200 guesses from 40 other addresses, 5 each, spread over 40 minutes.
    const elsewhere = freshSubnet();
    const statuses = new Map<number, number>();
    for (let guess = 0; guess < 200; guess += 1) {
      const response = await login(
        app,
        owner.email,
        `Wrong-${guess}`,
        elsewhere(Math.floor(guess / 5)),
      );
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      clock.advance(12_000);
    }
    // The storm itself was stopped: most of it was refused before any password was checked.
    expect(statuses.get(429) ?? 0).toBeGreaterThan(150);
    expect([...statuses.keys()].sort()).toEqual([400, 429]);

    const ownerLogin = await login(app, owner.email, PASSWORD, home);
    expect(ownerLogin.statusCode, ownerLogin.body).toBe(200);

    // From an address the owner never used, the storm blocks them too, and says what to do...
    const newPhone = freshSubnet()(3);
    const blocked = await login(app, owner.email, PASSWORD, newPhone);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(
      /^Too many failed sign-ins\. Please try again in .+, or reset your password to sign in now\.$/,
    );
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    // ...and the reset by e-mail stays open and makes that address a known one.
    const forgot = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: owner.email },
      remoteAddress: newPhone,
    });
    expect(forgot.statusCode).toBe(200);
    const { code } = await smtp.waitForMail(owner.email);
    const reset = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: {
        email: owner.email,
        otp: code,
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      },
      remoteAddress: newPhone,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await login(app, owner.email, NEW_PASSWORD, newPhone)).statusCode).toBe(200);
  });

  it("slows the guesser's own e-mail and address pair with a growing Retry-After", async () => {
    const clock = testClock();
    const app = await buildTestApp(database(), {}, { clock });
    const owner = await player(app);
    const attacker = freshSubnet()(1);

    for (let guess = 1; guess <= 6; guess += 1) {
      const response = await login(app, owner.email, `Wrong-${guess}`, attacker);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: ERROR_MESSAGES.invalidCredentials,
        statusCode: 400,
        code: 'BAD_REQUEST',
      });
    }

    const waits: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      // Refused before the password is even checked: the right one waits too.
      const refused = await login(app, owner.email, PASSWORD, attacker);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/^Too many attempts\. Please try again in .+\.$/);
      const wait = Number(refused.headers['retry-after']);
      waits.push(wait);
      clock.advance(wait * 1000);
      expect((await login(app, owner.email, `Wrong-again-${round}`, attacker)).statusCode).toBe(
        400,
      );
    }
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[1]).toBe((waits[0] ?? 0) * 2);
    expect(waits[2]).toBe((waits[1] ?? 0) * 2);

    // The owner at home is not slowed by it, and their success clears their own pair only.
    const home = freshSubnet()(2);
    expect((await login(app, owner.email, PASSWORD, home)).statusCode).toBe(200);
    expect((await login(app, owner.email, PASSWORD, attacker)).statusCode).toBe(429);
  });

  it('never refuses 50 honest players behind one carrier address, typos included', async () => {
    const app = await buildTestApp(database());
    const carrier = freshSubnet()(1);
    const players = await Promise.all(Array.from({ length: 50 }, () => player(app)));

    for (const [index, someone] of players.entries()) {
      if (index % 5 === 0) {
        const typo = await login(app, someone.email, `${PASSWORD}x`, carrier);
        expect(typo.statusCode).toBe(400);
      }
      const response = await login(app, someone.email.toUpperCase(), PASSWORD, carrier);
      expect(response.statusCode, response.body).toBe(200);
    }
    // Each success made the address known to its account.
    const known = await app.db
      .select()
      .from(knownLoginAddresses)
      .where(eq(knownLoginAddresses.userId, players[0]?.id ?? ''));
    expect(known).toHaveLength(1);
  });

  it('holds across two instances on one database', async () => {
    const clock = testClock();
    const first = await buildTestApp(database(), {}, { clock });
    const second = await buildTestApp(database(), {}, { clock });
    const owner = await player(first);
    const attacker = freshSubnet()(9);

    for (let guess = 1; guess <= 6; guess += 1) {
      const instance = guess % 2 === 0 ? second : first;
      expect((await login(instance, owner.email, `Wrong-${guess}`, attacker)).statusCode).toBe(400);
    }
    for (const instance of [first, second]) {
      const refused = await login(instance, owner.email, PASSWORD, attacker);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('answers an unknown e-mail exactly like a known one, limits included', async () => {
    const clock = testClock();
    const app = await buildTestApp(database(), {}, { clock });
    const owner = await player(app);
    const nobody = `nobody-${uniqueSuffix()}@example.test`;
    const address = freshSubnet()(4);
    const answers = async (email: string) => {
      const seen: string[] = [];
      for (let guess = 1; guess <= 8; guess += 1) {
        const response = await login(app, email, `Wrong-${guess}`, address);
        seen.push(`${response.statusCode} ${response.headers['retry-after'] ?? ''}`);
      }
      return seen;
    };
    expect(await answers(nobody)).toEqual(await answers(owner.email));
  });

  it('sweeps counters whose window and block are over in the worker', async () => {
    const clock = testClock();
    const app = await buildTestApp(database(), {}, { clock });
    const owner = await player(app);
    const address = freshSubnet()(5);
    await login(app, owner.email, 'Wrong-1', address);
    const mine = like(authThrottles.key, `%${owner.email}%`);
    expect(await app.db.$count(authThrottles, mine)).toBeGreaterThan(0);

    clock.advance(25 * 60 * MINUTE);
    await app.jobs.runDue();
    expect(await app.db.$count(authThrottles, mine)).toBe(0);
  });

  it('sweeps expired sessions and networks unseen for 90 days, and keeps live ones', async () => {
    const clock = testClock();
    const app = await buildTestApp(database(), {}, { clock });
    const owner = await player(app);
    const address = freshSubnet()(5);
    expect((await login(app, owner.email, PASSWORD, address)).statusCode).toBe(200);
    const ownSessions = eq(sessions.userId, owner.id);
    const ownNetworks = eq(knownLoginAddresses.userId, owner.id);

    clock.advance(7 * 24 * 60 * MINUTE);
    expect((await login(app, owner.email, PASSWORD, address)).statusCode).toBe(200);
    clock.advance(2 * 24 * 60 * MINUTE);
    await app.jobs.runDue();
    // The first session expired over a day ago; the second is still live.
    expect(await app.db.$count(sessions, ownSessions)).toBe(1);
    expect(await app.db.$count(knownLoginAddresses, ownNetworks)).toBe(1);

    clock.advance(91 * 24 * 60 * MINUTE);
    await app.jobs.runDue();
    expect(await app.db.$count(sessions, ownSessions)).toBe(0);
    expect(await app.db.$count(knownLoginAddresses, ownNetworks)).toBe(0);
  });
});
