import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_MESSAGES } from '../../../shared/messages.ts';
import { users } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { createGame, createPlan, fundWallet, uniqueSuffix } from '../../test/factories.ts';
import { startOidcProvider, type TestOidcProvider } from '../../test/oidc.ts';
import { AGE_MESSAGES } from '../users/age.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);
const PUBLIC_URL = 'http://pluckers.test';

let provider: TestOidcProvider;
beforeAll(async () => {
  provider = await startOidcProvider({ publicUrl: PUBLIC_URL });
});
afterAll(async () => {
  await provider?.close();
});

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.7.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
};

function cookiesFrom(response: { headers: Record<string, unknown> }): string {
  const header = response.headers['set-cookie'];
  const lines = Array.isArray(header) ? header : header ? [String(header)] : [];
  return lines.map((line: string) => line.split(';')[0]).join('; ');
}

/** A new player signing up with Google, through the local OpenID provider; their bearer header. */
async function googleSignUp(app: FastifyInstance) {
  const suffix = uniqueSuffix();
  const account = {
    sub: `google-${suffix}`,
    email: `new.player.${suffix}@gmail.test`,
    email_verified: true,
    name: 'New Player',
  };
  provider.setAccount(account);
  const start = await app.inject({ url: '/api/v1/auth/google' });
  const back = await provider.authorize(String(start.headers.location), { sub: account.sub });
  const callback = await app.inject({
    url: `${back.pathname}${back.search}`,
    headers: { cookie: cookiesFrom(start) },
  });
  const token = /^\/auth\/validate\/([A-Za-z0-9_-]+)$/.exec(String(callback.headers.location))?.[1];
  expect(token, String(callback.headers.location)).toBeTruthy();
  const validated = await app.inject({ url: `/api/v1/auth/validate-user/${token}` });
  const headers = { authorization: `Bearer ${validated.json().data.access_token}` };
  const me = await app.inject({ url: '/api/v1/user', headers });
  return { headers, user: me.json().data as { id: string; ageConfirmed: boolean } };
}

describe('18+ confirmation', () => {
  it('refuses a sign-up that says anything but ageConfirmed: true, with a clear 400 that changes nothing', async () => {
    const app = fileApp();
    const suffix = uniqueSuffix();
    const body = {
      fullname: 'Ada Lovelace',
      username: `ada_${suffix}`,
      email: `ada-${suffix}@example.test`,
      phoneNumber: '+2348012345678',
      password: 'Quiz-Master-2024',
      confirmPassword: 'Quiz-Master-2024',
    };
    for (const ageConfirmed of [false, 'yes', 1]) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { ...body, ageConfirmed },
        remoteAddress: nextIp(),
      });
      expect({ ageConfirmed, status: response.statusCode, json: response.json() }).toEqual({
        ageConfirmed,
        status: 400,
        json: { message: RULE_MESSAGES.ageConfirmed, statusCode: 400, code: 'VALIDATION_FAILED' },
      });
    }
    expect(await app.db.$count(users, eq(users.email, body.email))).toBe(0);

    const accepted = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { ...body, ageConfirmed: true },
      remoteAddress: nextIp(),
    });
    expect(accepted.statusCode).toBe(201);
    const [row] = await app.db.select().from(users).where(eq(users.email, body.email));
    expect(row?.ageConfirmedAt).toBeInstanceOf(Date);

    // A client that does not send the field (the spec's payload) signs up unconfirmed, and is
    // asked before its first play, top-up or plan, as a Google sign-up is.
    const silent = { ...body, username: `bo_${suffix}`, email: `bo-${suffix}@example.test` };
    const unconfirmed = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: silent,
      remoteAddress: nextIp(),
    });
    expect(unconfirmed.statusCode).toBe(201);
    const [unconfirmedRow] = await app.db.select().from(users).where(eq(users.email, silent.email));
    expect(unconfirmedRow?.ageConfirmedAt).toBeNull();
  });

  it('asks a Google sign-up to confirm before the first play, top-up or plan, then lets them', async () => {
    const app = await buildTestApp(database(), provider.env);
    const { headers, user } = await googleSignUp(app);
    expect(user.ageConfirmed).toBe(false);
    const game = await createGame(app.db, { status: 'ONGOING' });
    const plan = await createPlan(app.db, {});
    await fundWallet(app.db, user.id, 1_000_000n);

    const attempts = {
      play: () =>
        app.inject({
          method: 'POST',
          url: '/api/v1/game/play',
          headers,
          payload: { gameID: game.id, submittedAnswer: 'Jollof rice' },
        }),
      topUp: () =>
        app.inject({
          method: 'POST',
          url: '/api/v1/payment/transactpay',
          headers,
          payload: { amount: 1000 },
        }),
      subscribe: () =>
        app.inject({ method: 'POST', url: `/api/v1/plan/subscribe/${plan.id}`, headers }),
    };
    for (const [name, attempt] of Object.entries(attempts)) {
      const refused = await attempt();
      expect({ name, status: refused.statusCode, json: refused.json() }).toEqual({
        name,
        status: 403,
        json: { message: AGE_MESSAGES.required, statusCode: 403, code: 'AGE_UNCONFIRMED' },
      });
    }

    for (const body of [{}, { ageConfirmed: false }, { ageConfirmed: 'true' }]) {
      const bad = await app.inject({
        method: 'POST',
        url: '/api/v1/user/confirm-age',
        headers,
        payload: body,
      });
      expect(bad.json()).toEqual({
        message: RULE_MESSAGES.ageConfirmed,
        statusCode: 400,
        code: 'VALIDATION_FAILED',
      });
    }
    const [stillUnconfirmed] = await app.db.select().from(users).where(eq(users.id, user.id));
    expect(stillUnconfirmed?.ageConfirmedAt).toBeNull();

    const confirmed = await app.inject({
      method: 'POST',
      url: '/api/v1/user/confirm-age',
      headers,
      payload: { ageConfirmed: true },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({
      message: AGE_MESSAGES.confirmed,
      data: { id: user.id, ageConfirmed: true },
    });

    expect((await attempts.play()).statusCode).toBe(201);
    const topUp = await attempts.topUp();
    expect(topUp.statusCode, topUp.body).toBe(200);
    const subscribed = await attempts.subscribe();
    expect(subscribed.statusCode, subscribed.body).toBe(200);
  });

  it('needs a signed-in player to confirm', async () => {
    const app = fileApp();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/user/confirm-age',
      payload: { ageConfirmed: true },
    });
    expect(response.statusCode).toBe(401);
  });
});
