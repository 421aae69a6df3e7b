import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { payments, users, withdrawals } from '../db/schema.ts';
import { testAppPerFile } from '../test/app.ts';
import { testDatabasePerFile } from '../test/database.ts';
import { bearerFor, createUser, uniqueSuffix } from '../test/factories.ts';
import { INPUT_MESSAGES } from './input-guard.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

let address = 0;
/** Each request from its own address, so per-address limits never answer instead. */
const nextAddress = () => {
  address += 1;
  return `10.12.${(address >> 8) & 255}.${address & 255}`;
};

async function send(
  app: FastifyInstance,
  request: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE';
    url: string;
    headers?: Record<string, string>;
    payload?: unknown;
  },
) {
  return app.inject({
    ...request,
    payload: request.payload as string | object | undefined,
    remoteAddress: nextAddress(),
  });
}

async function setUp() {
  const app = fileApp();
  const player = await createUser(app.db);
  const admin = await createUser(app.db, { role: 'admin' });
  return {
    app,
    player,
    asPlayer: await bearerFor(app, player),
    asAdmin: await bearerFor(app, admin),
  };
}

describe('naira amounts out of range', () => {
  const HUGE = [1e308, Number.MAX_VALUE, 1e20, 2 ** 53 + 2];

  it('a top-up or a withdrawal of 1e308 is a 400 with a clear message, and nothing is recorded', async () => {
    const { app, player, asPlayer } = await setUp();
    for (const amount of HUGE) {
      for (const method of ['paystack', 'transactpay']) {
        const topUp = await send(app, {
          method: 'POST',
          url: `/api/v1/payment/${method}`,
          headers: asPlayer,
          payload: { amount },
        });
        expect(topUp.json(), `top-up ${amount}`).toEqual({
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: 'The maximum top-up is ₦10,000,000',
        });
      }
      const withdrawal = await send(app, {
        method: 'POST',
        url: '/api/v1/withdrawal',
        headers: asPlayer,
        payload: { amount },
      });
      expect(withdrawal.json(), `withdrawal ${amount}`).toEqual({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'The maximum withdrawal is ₦1,000,000,000',
      });
    }
    const [made] = await app.db
      .select({ payments: count() })
      .from(payments)
      .where(eq(payments.userId, player.id));
    const [asked] = await app.db
      .select({ withdrawals: count() })
      .from(withdrawals)
      .where(eq(withdrawals.userId, player.id));
    expect({ ...made, ...asked }).toEqual({ payments: 0, withdrawals: 0 });
  });

  it('every naira amount an operator sends is bounded: game fees and rewards, adjustments, settings, plans', async () => {
    const { app, player, asAdmin } = await setUp();
    const game = {
      title: 'Bounded game',
      reward: 1000,
      entryFee: 100,
      maximumPlayers: 10,
    };
    const plan = {
      planName: 'Bounded',
      amountPerDay: 100,
      features: {
        getVerifiedBadge: false,
        gamesPerDay: 5,
        tournamentAccess: false,
        earlyTournamentInvite: false,
        priorityLeaderboardPlacement: false,
        showAds: true,
      },
    };
    const settings = {
      withdrawalTransactionFee: 50,
      minimumPaymentAmount: 100,
      dailyGameLimit: 5,
      tournamentLaunchAt: null,
    };
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['POST', '/api/v1/admin/games', { ...game, reward: 1e308 }],
      ['POST', '/api/v1/admin/games', { ...game, entryFee: 1e308 }],
      ['POST', `/api/v1/admin/users/${player.id}/adjust`, { amount: 1e308, reason: 'testing' }],
      ['POST', `/api/v1/admin/users/${player.id}/adjust`, { amount: -1e308, reason: 'testing' }],
      ['PUT', '/api/v1/admin/settings', { ...settings, withdrawalTransactionFee: 1e308 }],
      ['PUT', '/api/v1/admin/settings', { ...settings, minimumPaymentAmount: 1e308 }],
      ['POST', '/api/v1/admin/plans', { ...plan, amountPerDay: 1e308 }],
    ];
    for (const [method, url, payload] of cases) {
      const response = await send(app, {
        method: method as 'POST',
        url,
        headers: asAdmin,
        payload,
      });
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(response.json().message).toMatch(/too large|maximum|at most/i);
    }
  });

  it('an amount smaller than a kobo is refused, not rounded to nothing', async () => {
    const { app, player, asAdmin } = await setUp();
    const adjustment = await send(app, {
      method: 'POST',
      url: `/api/v1/admin/users/${player.id}/adjust`,
      headers: asAdmin,
      payload: { amount: 0.001, reason: 'rounding' },
    });
    expect(adjustment.json()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Amount cannot be zero',
    });
  });
});

describe('text the database cannot store', () => {
  it('a NUL byte anywhere (body, nested body, query, path, keys) is a 400 with one clear message', async () => {
    const { app, asPlayer, asAdmin } = await setUp();
    const suffix = uniqueSuffix();
    const cases: Array<Parameters<typeof send>[1]> = [
      {
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: {
          fullname: 'Nul\u0000 Plucker',
          username: `n_${suffix}`.slice(0, 20),
          email: `nul-${suffix}@example.test`,
          phoneNumber: '+2348012345678',
          password: 'correct horse',
          confirmPassword: 'correct horse',
          ageConfirmed: true,
        },
      },
      {
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'a\u0000@example.test', password: 'x\u0000' },
      },
      {
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        payload: { email: 'someone\u0000@example.test' },
      },
      {
        method: 'PUT',
        url: '/api/v1/user',
        headers: asPlayer,
        payload: { username: 'nul\u0000name' },
      },
      {
        method: 'POST',
        url: '/api/v1/game/play',
        headers: asPlayer,
        payload: { gameID: '00000000-0000-4000-8000-000000000000', submittedAnswer: 'a\u0000b' },
      },
      {
        method: 'POST',
        url: '/api/v1/admin/categories',
        headers: asAdmin,
        payload: { title: 'Nul\u0000 category', emoji: '🎯' },
      },
      {
        method: 'POST',
        url: '/api/v1/admin/plans',
        headers: asAdmin,
        payload: { planName: 'x', features: { 'evil\u0000key': true } },
      },
      { method: 'GET', url: '/api/v1/admin/users?q=a%00b', headers: asAdmin },
      { method: 'GET', url: '/api/v1/game/abc%00def', headers: asPlayer },
      { method: 'GET', url: '/api/v1/auth/validate-user/token%00' },
      {
        method: 'POST',
        url: '/api/v1/withdrawal',
        headers: { ...asPlayer, 'idempotency-key': 'retry\u0000key-1234' },
        payload: { amount: 500 },
      },
    ];
    for (const request of cases) {
      const response = await send(app, request);
      expect(response.json(), `${request.method} ${request.url}`).toEqual({
        statusCode: 400,
        code: 'BAD_REQUEST',
        message: INPUT_MESSAGES.unsupportedCharacter,
      });
    }
    const [stored] = await app.db
      .select({ n: count() })
      .from(users)
      .where(eq(users.email, `nul-${suffix}@example.test`));
    expect(stored?.n).toBe(0);
  });

  it('an unpaired UTF-16 surrogate is refused the same way rather than silently replaced', async () => {
    const { app, asAdmin } = await setUp();
    const response = await send(app, {
      method: 'POST',
      url: '/api/v1/admin/categories',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      payload: '{"title":"Half \\ud83d pair","emoji":"🎯"}',
    });
    expect(response.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: INPUT_MESSAGES.unsupportedCharacter,
    });
    // A whole pair is an emoji like any other.
    const emoji = await send(app, {
      method: 'POST',
      url: '/api/v1/admin/categories',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      payload: `{"title":"Whole \\ud83d\\ude00 pair ${uniqueSuffix()}","emoji":"🎯"}`,
    });
    expect(emoji.statusCode, emoji.body).toBe(201);
  });

  it('deep nesting and oversized bodies are refused cleanly', async () => {
    const { app, asPlayer } = await setUp();
    const depth = 100_000;
    const deep = await send(app, {
      method: 'PUT',
      url: '/api/v1/user',
      headers: { ...asPlayer, 'content-type': 'application/json' },
      payload: `{"username":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ statusCode: 400 });
    const huge = await send(app, {
      method: 'PUT',
      url: '/api/v1/user',
      headers: { ...asPlayer, 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'x'.repeat(2_000_000) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('found by the route fuzzer', () => {
  it('a multipart upload cut short, or without its boundary, is a 400', async () => {
    const { app, asPlayer } = await setUp();
    const part =
      '--fuzz\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc';
    for (const [boundary, payload] of [
      ['fuzz', part],
      ['other', `${part}\r\n--fuzz--\r\n`],
      ['', `${part}\r\n--fuzz--\r\n`],
    ] as const) {
      const response = await send(app, {
        method: 'POST',
        url: '/api/v1/upload/profile-photo',
        headers: { ...asPlayer, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(response.json(), `${boundary} ${payload}`).toEqual({
        statusCode: 400,
        code: 'BAD_REQUEST',
        message: 'Please upload a valid profile photo',
      });
    }
  });

  it('a positive amount too small to be a kobo is refused where zero is not allowed', async () => {
    const { app, asAdmin } = await setUp();
    const plan = await send(app, {
      method: 'POST',
      url: '/api/v1/admin/plans',
      headers: asAdmin,
      payload: {
        planName: 'Tiny',
        amountPerDay: 1.5e-233,
        features: {
          getVerifiedBadge: false,
          gamesPerDay: 5,
          tournamentAccess: false,
          earlyTournamentInvite: false,
          priorityLeaderboardPlacement: false,
          showAds: true,
        },
      },
    });
    expect(plan.json()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Daily amount must be above zero',
    });
    const settings = await send(app, {
      method: 'PUT',
      url: '/api/v1/admin/settings',
      headers: asAdmin,
      payload: {
        withdrawalTransactionFee: 50,
        minimumPaymentAmount: 0.004,
        dailyGameLimit: 5,
        tournamentLaunchAt: null,
      },
    });
    expect(settings.json()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Minimum payment must be above zero',
    });
  });
});
