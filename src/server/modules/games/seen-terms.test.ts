import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { gameEntries, users } from '../../db/schema.ts';
import { type buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createGame, createPlayer } from '../../test/factories.ts';
import { rewardChangedMessage } from './service.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

async function balanceOf(app: Awaited<ReturnType<typeof buildTestApp>>, userId: string) {
  const [row] = await app.db
    .select({ balance: users.accountBalance })
    .from(users)
    .where(eq(users.id, userId));
  return row?.balance;
}

describe('the reward the player saw', () => {
  it('charges nothing when the reward changed since it was shown, and answers with the fresh game', async () => {
    const app = fileApp();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const game = await createGame(app.db, { entryFee: 10_000n, reward: 3_000n });
    const headers = await bearerFor(app, player);
    const send = (reward: number) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/game/play',
        headers,
        payload: { gameID: game.id, submittedAnswer: 'suya at night', entryFee: 100, reward },
      });

    const stale = await send(300);
    expect(stale.json()).toMatchObject({
      statusCode: 409,
      code: 'REWARD_CHANGED',
      message: rewardChangedMessage(3_000n),
      data: { id: game.id, entryFee: 100, reward: 30, hasPlayedGame: false },
    });
    expect(stale.json().message).toBe(
      'The reward for this game has changed to ₦30. Nothing was charged: check the game and answer again.',
    );
    expect(await balanceOf(app, player.id)).toBe(100_000n);
    expect(
      await app.db.select().from(gameEntries).where(eq(gameEntries.gameId, game.id)),
    ).toHaveLength(0);

    const seen = await send(30);
    expect(seen.statusCode, seen.body).toBe(201);
    expect(seen.json().data).toMatchObject({ amountPaid: 100, amountToWin: 30, playerCount: 1 });
    expect(await balanceOf(app, player.id)).toBe(90_000n);
  });

  it('refuses a reward that is not a sane naira amount with a clear message', async () => {
    const app = fileApp();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const game = await createGame(app.db, { entryFee: 0n });
    for (const [reward, message] of [
      [-1, 'The reward cannot be negative'],
      ['500', 'The reward must be a number'],
      [1e308, 'The reward is too large'],
    ] as const) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/game/play',
        headers: await bearerFor(app, player),
        payload: { gameID: game.id, submittedAnswer: 'chin chin', reward },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(message);
    }
  });
});
