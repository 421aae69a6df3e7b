import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../../shared/messages.ts';
import { gameEntries, payments, sessions, users } from '../../db/schema.ts';
import { testAppPerFile } from '../../test/app.ts';
import { withoutNotifications } from '../../test/cluster.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createGame,
  createPlan,
  createPlayer,
  type UserRow,
} from '../../test/factories.ts';
import { balanceOf } from '../../test/fake-money.ts';
import { feeChangedMessage } from '../games/service.ts';

const database = testDatabasePerFile();
const testApp = testAppPerFile(database);

type Headers = { authorization: string };

/** The four requests that move a player's money, each with what it would leave behind. */
function moneyRequests(app: FastifyInstance) {
  return {
    play: async (headers: Headers) => {
      const game = await createGame(app.db, { entryFee: 10_000n });
      return app.inject({
        method: 'POST',
        url: '/api/v1/game/play',
        headers,
        payload: { gameID: game.id, submittedAnswer: 'jollof rice' },
      });
    },
    withdraw: (headers: Headers) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/withdrawal',
        headers,
        payload: { amount: 1_000 },
      }),
    subscribe: async (headers: Headers) => {
      const plan = await createPlan(app.db, {});
      return app.inject({ method: 'POST', url: `/api/v1/plan/subscribe/${plan.id}`, headers });
    },
    topUp: (headers: Headers) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/payment/transactpay',
        headers,
        payload: { amount: 1_000 },
      }),
  };
}

async function traces(app: FastifyInstance, user: UserRow) {
  const [row] = await app.db
    .select({ planId: users.planId })
    .from(users)
    .where(eq(users.id, user.id));
  return {
    balance: await balanceOf(app.db, user.id),
    entries: (await app.db.select().from(gameEntries).where(eq(gameEntries.userId, user.id)))
      .length,
    payments: (await app.db.select().from(payments).where(eq(payments.userId, user.id))).length,
    planId: row?.planId ?? null,
  };
}

/**
 * Each change is made with notifications off, as on an instance that has not heard of it yet:
 * the request is admitted from the cache, and only the check inside its transaction stops it.
 */
const changesMadeElsewhere = {
  suspension: {
    change: (user: UserRow) =>
      withoutNotifications(database().db, (tx) =>
        tx.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, user.id)),
      ),
    message: ACCOUNT_MESSAGES.suspended,
  },
  deletion: {
    change: (user: UserRow) =>
      withoutNotifications(database().db, (tx) =>
        tx.update(users).set({ deletedAt: new Date() }).where(eq(users.id, user.id)),
      ),
    message: 'Unauthorized',
  },
  'password change (token version)': {
    change: (user: UserRow) =>
      withoutNotifications(database().db, (tx) =>
        tx
          .update(users)
          .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
          .where(eq(users.id, user.id)),
      ),
    message: 'Unauthorized',
  },
  'log-out of this session': {
    change: (user: UserRow) =>
      withoutNotifications(database().db, (tx) =>
        tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.userId, user.id)),
      ),
    message: 'Unauthorized',
  },
};

describe('money-moving requests check the account inside their transaction', () => {
  for (const [what, { change, message }] of Object.entries(changesMadeElsewhere)) {
    it(`refuses play, withdrawal, plan and top-up after a ${what} this instance has not heard of`, async () => {
      const app = testApp();
      const requests = moneyRequests(app);
      for (const [name, send] of Object.entries(requests)) {
        const player = await createPlayer(app.db, { kobo: 5_000_000n });
        const headers = await bearerFor(app, player);
        // Admitted once, so the account and session are cached as live.
        expect((await app.inject({ url: '/api/v1/user', headers })).statusCode).toBe(200);
        const before = await traces(app, player);

        await change(player);
        expect((await app.inject({ url: '/api/v1/user', headers })).statusCode, name).toBe(200);
        const refused = await send(headers);

        expect(refused.statusCode, `${name}: ${refused.body}`).toBe(401);
        expect(refused.json().message, name).toBe(message);
        expect(await traces(app, player), name).toEqual(before);
      }
    });
  }

  it('lets the same requests through for a live account', async () => {
    const app = testApp();
    for (const [name, send] of Object.entries(moneyRequests(app))) {
      const player = await createPlayer(app.db, { kobo: 5_000_000n });
      const response = await send(await bearerFor(app, player));
      expect(response.statusCode, `${name}: ${response.body}`).toBeLessThan(300);
    }
  });
});

describe('the fee the player saw', () => {
  it('charges nothing when the fee changed since it was shown, and answers with the fresh game', async () => {
    const app = testApp();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const game = await createGame(app.db, { entryFee: 20_000n });
    const headers = await bearerFor(app, player);

    const stale = await app.inject({
      method: 'POST',
      url: '/api/v1/game/play',
      headers,
      payload: { gameID: game.id, submittedAnswer: 'pounded yam', entryFee: 100 },
    });

    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      statusCode: 409,
      code: 'FEE_CHANGED',
      message: feeChangedMessage(20_000n),
      data: { id: game.id, entryFee: 200, hasPlayedGame: false },
    });
    expect(stale.json().message).toBe(
      'The entry fee for this game has changed to ₦200. Nothing was charged: check the game and answer again.',
    );
    expect(await balanceOf(app.db, player.id)).toBe(100_000n);

    const seen = await app.inject({
      method: 'POST',
      url: '/api/v1/game/play',
      headers,
      payload: { gameID: game.id, submittedAnswer: 'pounded yam', entryFee: 200 },
    });
    expect(seen.statusCode, seen.body).toBe(201);
    expect(seen.json().data.amountPaid).toBe(200);
    expect(await balanceOf(app.db, player.id)).toBe(80_000n);
  });

  it('refuses a fee that is not a sane naira amount with a clear message', async () => {
    const app = testApp();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const game = await createGame(app.db, { entryFee: 0n });
    for (const [entryFee, message] of [
      [-1, 'The entry fee cannot be negative'],
      ['200', 'The entry fee must be a number'],
      [1e308, 'The entry fee is too large'],
    ] as const) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/game/play',
        headers: await bearerFor(app, player),
        payload: { gameID: game.id, submittedAnswer: 'moi moi', entryFee },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    }
  });
});
