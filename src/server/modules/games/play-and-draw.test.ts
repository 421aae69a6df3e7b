import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { verifyDrawProof } from '../../../shared/draw-check.ts';
import { webFairnessCrypto } from '../../../shared/fairness.ts';
import { games, users } from '../../db/schema.ts';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createGame, createPlayer, type UserRow } from '../../test/factories.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

/** A player with `naira` in the wallet and no bank account. */
function fundedUser(app: FastifyInstance, naira: number) {
  return createPlayer(app.db, { kobo: BigInt(naira * 100), bank: null });
}

// Every game here: entry ₦100, reward ₦300, 10 places.
const GAME = { entryFee: 10_000n, reward: 30_000n, maximumPlayers: 10 };

describe('play and draw', () => {
  it('debits the fee, closes the game on the last place, draws verifiable winners and credits them', async () => {
    const app = fileApp();
    const game = await createGame(app.db, GAME);
    const players = await Promise.all(Array.from({ length: 10 }, () => fundedUser(app, 500)));

    for (const player of players) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/game/play',
        headers: await bearerFor(app, player),
        payload: { gameID: game.id, submittedAnswer: '  Jollof   rice with plantain ' },
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data.submittedAnswer).toBe('Jollof rice with plantain');
    }
    const [closed] = await app.db.select().from(games).where(eq(games.id, game.id));
    expect(closed?.status).toBe('CLOSED');

    expect(await app.jobs.runDue()).toBeGreaterThanOrEqual(1);
    const proofResponse = await app.inject({ url: `/api/v1/game/${game.id}/draw` });
    const proof = proofResponse.json().data;
    expect(proof.status).toBe('COMPLETED');
    expect(proof.winners).toHaveLength(2);
    expect(await verifyDrawProof(webFairnessCrypto, proof)).toEqual({ ok: true });

    const balances = await app.db
      .select({
        id: users.id,
        balance: users.accountBalance,
        won: users.totalGamesWon,
        played: users.totalGamesPlayed,
      })
      .from(users)
      .where(sql`${users.id} in ${players.map((p) => p.id)}`);
    const winners = balances.filter((row) => row.won === 1);
    expect(winners).toHaveLength(2);
    for (const row of balances) {
      expect(row.played).toBe(1);
      expect(row.balance).toBe(row.won === 1 ? 50_000n - 10_000n + 30_000n : 40_000n);
    }
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);

    // A second run of the same draw changes nothing.
    await app.jobs.runDue();
    const again = await app.inject({ url: `/api/v1/game/${game.id}/draw` });
    expect(again.json().data.winners).toEqual(proof.winners);
  });

  it('counts a game played and +10 points when the answer is taken; a cancelled game takes them back', async () => {
    const app = fileApp();
    const stats = async (id: string) =>
      (
        await app.db
          .select({ played: users.totalGamesPlayed, points: users.points, level: users.level })
          .from(users)
          .where(eq(users.id, id))
      )[0];
    const play = async (player: UserRow, gameId: string) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/game/play',
        headers: await bearerFor(app, player),
        payload: { gameID: gameId, submittedAnswer: 'Suya' },
      });
      expect(response.statusCode, response.body).toBe(201);
    };
    // A place that is not the last: the play in one statement.
    const open = await createGame(app.db, GAME);
    const player = await fundedUser(app, 500);
    await app.db.update(users).set({ points: 95 }).where(eq(users.id, player.id));
    await play(player, open.id);
    expect(await stats(player.id)).toEqual({ played: 1, points: 105, level: 2 });
    // The last place (the play in JavaScript closes the game), then its draw cancels it.
    const single = await createGame(app.db, { ...GAME, maximumPlayers: 1 });
    await play(player, single.id);
    expect(await stats(player.id)).toEqual({ played: 2, points: 115, level: 2 });
    expect(await app.jobs.runDue()).toBeGreaterThanOrEqual(1);
    const [cancelled] = await app.db.select().from(games).where(eq(games.id, single.id));
    expect(cancelled?.status).toBe('CANCELLED');
    expect(await stats(player.id)).toEqual({ played: 1, points: 105, level: 2 });
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('refuses a second answer, too many words, and a short balance with clear messages', async () => {
    const app = fileApp();
    const game = await createGame(app.db, GAME);
    const player = await fundedUser(app, 150);
    const headers = await bearerFor(app, player);
    const play = (submittedAnswer: string) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/game/play',
        headers,
        payload: { gameID: game.id, submittedAnswer },
      });

    const tooLong = await play(Array.from({ length: 21 }, () => 'word').join(' '));
    expect(tooLong.json()).toEqual({
      message: 'Your answer must be 20 words or fewer',
      statusCode: 400,
      code: 'VALIDATION_FAILED',
    });
    expect((await play('   ')).json().message).toBe('Type your answer before you submit');
    expect((await play('first answer')).statusCode).toBe(201);
    const second = await play('second answer');
    expect(second.statusCode).toBe(409);

    const poor = await fundedUser(app, 50);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/v1/game/play',
      headers: await bearerFor(app, poor),
      payload: { gameID: game.id, submittedAnswer: 'hello' },
    });
    expect(refused.json().message).toBe(
      'You need at least ₦100 in your wallet to play this game. Top up to continue.',
    );
    const [after] = await app.db
      .select({ balance: users.accountBalance })
      .from(users)
      .where(eq(users.id, poor.id));
    expect(after?.balance).toBe(5_000n);
  });

  it('cancels and refunds a game that closes with fewer than 5 players', async () => {
    const app = fileApp();
    const game = await createGame(app.db, GAME);
    const players = await Promise.all(Array.from({ length: 3 }, () => fundedUser(app, 200)));
    for (const player of players) {
      await app.inject({
        method: 'POST',
        url: '/api/v1/game/play',
        headers: await bearerFor(app, player),
        payload: { gameID: game.id, submittedAnswer: 'yes' },
      });
    }
    await app.db.update(games).set({ status: 'CLOSED' }).where(eq(games.id, game.id));
    await app.db.execute(
      sql`INSERT INTO jobs (kind, key, payload) VALUES ('draw', ${`draw:${game.id}`}, ${JSON.stringify({ gameId: game.id })}::jsonb)`,
    );
    await app.jobs.runDue();
    const [cancelled] = await app.db.select().from(games).where(eq(games.id, game.id));
    expect(cancelled?.status).toBe('CANCELLED');
    const rows = await app.db
      .select({ balance: users.accountBalance })
      .from(users)
      .where(sql`${users.id} in ${players.map((p) => p.id)}`);
    expect(rows.map((row) => row.balance)).toEqual([20_000n, 20_000n, 20_000n]);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });
});
