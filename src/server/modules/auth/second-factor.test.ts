import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { operatorRecoveryCodes, operatorSecondFactors } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  createPlayer,
  createUser,
  type TestClock,
  testClock,
  type UserRow,
} from '../../test/factories.ts';
import { balanceOf } from '../../test/fake-money.ts';
import { expectLedgerOk } from '../../test/ledger.ts';
import { testPasswordHash } from '../../test/passwords.ts';
import { resetSecondFactor } from './second-factor.ts';
import { totpCode } from './totp.ts';

const database = testDatabasePerFile();
const PASSWORD = 'operator-console-password';
const MINUTE = 60_000;

async function operatorWithPassword(app: FastifyInstance): Promise<UserRow> {
  return createUser(app.db, { role: 'admin', passwordHash: await testPasswordHash(PASSWORD) });
}

/** Signs in at /auth/login as the console's login page does: the password alone. */
async function passwordLogin(app: FastifyInstance, operator: UserRow) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: operator.email, password: PASSWORD },
  });
  expect(response.statusCode).toBe(200);
  return { authorization: `Bearer ${response.json().data.accessToken as string}` };
}

function call(
  app: FastifyInstance,
  headers: { authorization: string },
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload?: unknown,
) {
  return app.inject({ method, url: `/api/v1${url}`, headers, payload: payload as object });
}

/** The console's first login: enrol, scan, confirm with the authenticator's current code. */
async function enrol(app: FastifyInstance, clock: TestClock, headers: { authorization: string }) {
  const started = await call(app, headers, 'POST', '/admin/second-factor/enrolment');
  expect(started.statusCode).toBe(200);
  const { secret, otpauthUri } = started.json().data as { secret: string; otpauthUri: string };
  expect(otpauthUri).toContain(`secret=${secret}`);
  const confirmed = await call(app, headers, 'POST', '/admin/second-factor/enrolment/confirm', {
    code: totpCode(secret, clock.now().getTime()),
  });
  expect(confirmed.statusCode).toBe(200);
  const { recoveryCodes } = confirmed.json().data as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}

describe('operator second factor', () => {
  it("an operator's password alone does not open the console", async () => {
    const app = await buildTestApp(database());
    const operator = await operatorWithPassword(app);
    const headers = await passwordLogin(app, operator);
    const users = await call(app, headers, 'GET', '/admin/users');
    expect(users.statusCode).toBe(403);
    expect(users.json()).toMatchObject({
      code: 'SECOND_FACTOR_REQUIRED',
      data: { enrolled: false },
    });
  });

  it('enrols at the first console login with a real code, then opens the console', async () => {
    const clock = testClock('2026-03-02T09:00:10Z');
    const app = await buildTestApp(database(), {}, { clock });
    const operator = await operatorWithPassword(app);
    const headers = await passwordLogin(app, operator);

    const status = await call(app, headers, 'GET', '/admin/second-factor');
    expect(status.json().data).toEqual({ enrolled: false, provedAt: null, recoveryCodesLeft: 0 });

    const { secret, recoveryCodes } = await enrol(app, clock, headers);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect((await call(app, headers, 'GET', '/admin/users')).statusCode).toBe(200);

    // The secret is never handed out again, and is not kept in the clear; codes kept hashed.
    const after = await call(app, headers, 'GET', '/admin/second-factor');
    expect(after.json().data).toEqual({
      enrolled: true,
      provedAt: clock.now().toISOString(),
      recoveryCodesLeft: 10,
    });
    expect(after.body).not.toContain(secret);
    const again = await call(app, headers, 'POST', '/admin/second-factor/enrolment');
    expect(again.statusCode).toBe(409);
    expect(again.body).not.toContain(secret);
    const [stored] = await app.db
      .select()
      .from(operatorSecondFactors)
      .where(eq(operatorSecondFactors.userId, operator.id));
    expect(stored?.secret).not.toContain(secret);
    const hashes = await app.db
      .select({ codeHash: operatorRecoveryCodes.codeHash })
      .from(operatorRecoveryCodes)
      .where(eq(operatorRecoveryCodes.userId, operator.id));
    expect(hashes).toHaveLength(10);
    for (const code of recoveryCodes)
      expect(hashes.map((row) => row.codeHash).join()).not.toContain(code);
  });

  it('a wrong code does not enrol, and enrolment cannot be confirmed twice', async () => {
    const clock = testClock('2026-03-02T09:00:10Z');
    const app = await buildTestApp(database(), {}, { clock });
    const headers = await passwordLogin(app, await operatorWithPassword(app));
    const started = await call(app, headers, 'POST', '/admin/second-factor/enrolment');
    const { secret } = started.json().data as { secret: string };
    const wrong = String((Number(totpCode(secret, clock.now().getTime())) + 1) % 1_000_000);
    const refused = await call(app, headers, 'POST', '/admin/second-factor/enrolment/confirm', {
      code: wrong.padStart(6, '0'),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('PROOF_REFUSED');
    expect((await call(app, headers, 'GET', '/admin/users')).statusCode).toBe(403);

    const confirmed = await call(app, headers, 'POST', '/admin/second-factor/enrolment/confirm', {
      code: totpCode(secret, clock.now().getTime()),
    });
    expect(confirmed.statusCode).toBe(200);
    clock.advance(30_000);
    const twice = await call(app, headers, 'POST', '/admin/second-factor/enrolment/confirm', {
      code: totpCode(secret, clock.now().getTime()),
    });
    expect(twice.statusCode).toBe(409);
  });

  it('a later login asks for a code: ±1 step accepted, a replay refused, wrong guesses throttled', async () => {
    const clock = testClock('2026-03-02T09:00:10Z');
    const app = await buildTestApp(database(), {}, { clock });
    const operator = await operatorWithPassword(app);
    const { secret } = await enrol(app, clock, await passwordLogin(app, operator));

    clock.advance(5 * MINUTE);
    const second = await passwordLogin(app, operator);
    const users = await call(app, second, 'GET', '/admin/users');
    expect(users.statusCode).toBe(403);
    expect(users.json()).toMatchObject({
      code: 'SECOND_FACTOR_REQUIRED',
      data: { enrolled: true },
    });

    // The code of the previous step (a phone a little behind) is accepted.
    const previous = totpCode(secret, clock.now().getTime() - 30_000);
    const verified = await call(app, second, 'POST', '/admin/second-factor/verify', {
      code: previous,
    });
    expect(verified.statusCode).toBe(200);
    expect((await call(app, second, 'GET', '/admin/users')).statusCode).toBe(200);

    // Someone who saw that code over the operator's shoulder cannot use it again.
    const third = await passwordLogin(app, operator);
    const replay = await call(app, third, 'POST', '/admin/second-factor/verify', {
      code: previous,
    });
    expect(replay.statusCode).toBe(400);
    expect((await call(app, third, 'GET', '/admin/users')).statusCode).toBe(403);

    // Two steps away is refused; five wrong guesses and the account waits, even for a right one.
    const stale = totpCode(secret, clock.now().getTime() - 90_000);
    expect(
      (await call(app, third, 'POST', '/admin/second-factor/verify', { code: stale })).statusCode,
    ).toBe(400);
    // The replay and the stale code were the first two wrong guesses; the fifth starts a wait.
    for (let guess = 0; guess < 3; guess += 1) {
      const response = await call(app, third, 'POST', '/admin/second-factor/verify', {
        code: '000000',
      });
      expect(response.statusCode).toBe(400);
    }
    const blocked = await call(app, third, 'POST', '/admin/second-factor/verify', {
      code: totpCode(secret, clock.now().getTime()),
    });
    expect(blocked.statusCode).toBe(429);
    clock.advance(2 * MINUTE);
    const after = await call(app, third, 'POST', '/admin/second-factor/verify', {
      code: totpCode(secret, clock.now().getTime()),
    });
    expect(after.statusCode).toBe(200);
  });

  it('a recovery code stands in for the authenticator once', async () => {
    const clock = testClock('2026-03-02T09:00:10Z');
    const app = await buildTestApp(database(), {}, { clock });
    const operator = await operatorWithPassword(app);
    const { recoveryCodes } = await enrol(app, clock, await passwordLogin(app, operator));
    const [code] = recoveryCodes;
    if (!code) throw new Error('no recovery code');

    const lostPhone = await passwordLogin(app, operator);
    const used = await call(app, lostPhone, 'POST', '/admin/second-factor/verify', { code });
    expect(used.statusCode).toBe(200);
    expect(used.json().data.recoveryCodesLeft).toBe(9);
    expect((await call(app, lostPhone, 'GET', '/admin/users')).statusCode).toBe(200);

    const again = await passwordLogin(app, operator);
    const reused = await call(app, again, 'POST', '/admin/second-factor/verify', { code });
    expect(reused.statusCode).toBe(400);
  });

  it('a reset (lost phone) signs the operator out, and the next login enrols again', async () => {
    const clock = testClock('2026-03-02T09:00:10Z');
    const app = await buildTestApp(database(), {}, { clock });
    const operator = await operatorWithPassword(app);
    const before = await passwordLogin(app, operator);
    await enrol(app, clock, before);
    await resetSecondFactor(app.db, operator.id, clock.now());
    app.tokens.forgetUser(operator.id);
    expect((await call(app, before, 'GET', '/admin/users')).statusCode).toBe(401);

    const after = await passwordLogin(app, operator);
    const users = await call(app, after, 'GET', '/admin/users');
    expect(users.json()).toMatchObject({
      code: 'SECOND_FACTOR_REQUIRED',
      data: { enrolled: false },
    });
    clock.advance(60_000);
    await enrol(app, clock, after);
    expect((await call(app, after, 'GET', '/admin/users')).statusCode).toBe(200);
  });

  it('a player cannot enrol or verify', async () => {
    const app = await buildTestApp(database());
    const player = await createUser(app.db, { passwordHash: await testPasswordHash(PASSWORD) });
    const headers = await passwordLogin(app, player);
    const response = await call(app, headers, 'POST', '/admin/second-factor/enrolment');
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('OPERATORS_ONLY');
  });

  it('payouts, wallet adjustments, lifted breaks and settings want a proof no older than 15 minutes', async () => {
    const clock = testClock('2026-03-02T09:00:10Z');
    const app = await buildTestApp(database(), {}, { clock });
    const operator = await operatorWithPassword(app);
    const headers = await passwordLogin(app, operator);
    const { secret } = await enrol(app, clock, headers);
    const player = await createPlayer(app.db);
    const adjust = () =>
      call(app, headers, 'POST', `/admin/users/${player.id}/adjust`, {
        amount: 100,
        reason: 'goodwill credit after an outage',
      });

    clock.advance(14 * MINUTE);
    expect((await adjust()).statusCode).toBe(200);

    clock.advance(2 * MINUTE);
    const sensitive = [
      adjust(),
      call(app, headers, 'POST', `/admin/withdrawals/${player.id}/approve`, {}),
      call(app, headers, 'POST', `/admin/users/${player.id}/exclusion/lift`, {}),
      call(app, headers, 'PUT', '/admin/settings', {}),
      call(app, headers, 'PUT', '/admin/settings/bank-transfer-provider', {
        provider: 'flutterwave',
      }),
    ];
    for (const response of await Promise.all(sensitive)) {
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('FRESH_SECOND_FACTOR_REQUIRED');
    }
    // Reading the console still works on the older proof.
    expect((await call(app, headers, 'GET', '/admin/users')).statusCode).toBe(200);

    const proved = await call(app, headers, 'POST', '/admin/second-factor/verify', {
      code: totpCode(secret, clock.now().getTime()),
    });
    expect(proved.statusCode).toBe(200);
    expect((await adjust()).statusCode).toBe(200);
    // Two adjustments went through, each one balanced ledger transaction; the refused ones left none.
    expect(await balanceOf(app.db, player.id)).toBe(20_000n);
    await expectLedgerOk(app.db, [player.id]);
  });
});
