import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { lagosDayStart } from '../../../shared/date.ts';
import { rowsOf } from '../../db/rows.ts';
import { gameEntries, playExclusions } from '../../db/schema.ts';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createGame, createPlayer, type UserRow } from '../../test/factories.ts';
import { balanceOf } from '../../test/fake-money.ts';
import { expectLedgerOk } from '../../test/ledger.ts';
import { type BatchedPlay, PlayBatcher, type PositionalClient } from './play-batch.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

/** Each player's headers, signed in and known to the auth cache before any play is sent. */
async function signedIn(app: FastifyInstance, players: UserRow[]) {
  const headers = new Map<string, Record<string, string>>();
  for (const player of players) {
    const bearer = await bearerFor(app, player);
    expect((await app.inject({ url: '/api/v1/user', headers: bearer })).statusCode).toBe(200);
    headers.set(player.id, bearer);
  }
  return (player: UserRow, gameID: string, extra: { entryFee?: number } = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/game/play',
      headers: headers.get(player.id),
      payload: { gameID, submittedAnswer: `Pepper soup for ${player.handle}`, ...extra },
    });
}

/** The transaction that wrote each of these entries (PostgreSQL's xmin). */
async function writersOf(app: FastifyInstance, entryIds: number[]): Promise<Set<string>> {
  const rows = await app.db
    .select({ writer: sql<string>`${gameEntries}.xmin::text` })
    .from(gameEntries)
    .where(inArray(gameEntries.id, entryIds));
  return new Set(rows.map((row) => row.writer));
}

describe('plays sent together', () => {
  it('each get their own answer, in the order of the checks', async () => {
    const app = fileApp();
    const open = await createGame(app.db, { entryFee: 10_000n, maximumPlayers: 50 });
    const full = await createGame(app.db, {
      status: 'CLOSED',
      playerCount: 10,
      maximumPlayers: 10,
    });
    const completed = await createGame(app.db, { status: 'COMPLETED', entryFee: 20_000n });
    const players = await Promise.all(
      Array.from({ length: 7 }, () => createPlayer(app.db, { kobo: 50_000n })),
    );
    const [a, b, c, late, onBreak, staleFee, twice] = players as [
      UserRow,
      UserRow,
      UserRow,
      UserRow,
      UserRow,
      UserRow,
      UserRow,
    ];
    const now = new Date();
    await app.db.insert(playExclusions).values({
      userId: onBreak.id,
      kind: 'timeout',
      startsAt: new Date(now.getTime() - 60_000),
      endsAt: new Date(now.getTime() + 86_400_000),
    });
    // Signed in and remembered beforehand, so every play below reaches the batch in one turn.
    const send = await signedIn(app, players);

    const [playedA, playedB, playedC, tooLate, paused, feeChanged, first, second] =
      await Promise.all([
        send(a, open.id),
        send(b, open.id),
        send(c, open.id),
        send(late, full.id),
        // A break is told before a full game, a changed fee before a closed one.
        send(onBreak, full.id),
        send(staleFee, completed.id, { entryFee: 100 }),
        send(twice, open.id),
        send(twice, open.id),
      ]);

    // One player's two plays of one game: one place, one refusal.
    expect([first.statusCode, second.statusCode].sort()).toEqual([201, 409]);
    const [placed, refused] = first.statusCode === 201 ? [first, second] : [second, first];
    expect(refused.json().code).toBe('ALREADY_PLAYED');
    const taken = [playedA, playedB, playedC, placed].map((response) => {
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data;
    });
    expect(taken.map((data) => data.playerCount).sort()).toEqual([1, 2, 3, 4]);
    expect(taken.every((data) => data.amountPaid === 100 && data.gameID === open.id)).toBe(true);
    expect(tooLate.json()).toEqual({
      statusCode: 409,
      code: 'GAME_FULL',
      message: 'This game is full. Try another one.',
    });
    expect(paused.statusCode).toBe(403);
    expect(paused.json().code).toBe('PLAY_PAUSED');
    expect(feeChanged.statusCode).toBe(409);
    expect(feeChanged.json()).toMatchObject({ code: 'FEE_CHANGED', data: { id: completed.id } });
    const balancesOf = (some: UserRow[]) =>
      Promise.all(some.map((player) => balanceOf(app.db, player.id)));
    expect(await balancesOf([a, b, c, twice])).toEqual(Array(4).fill(40_000n));
    expect(await balancesOf([late, onBreak, staleFee])).toEqual(Array(3).fill(50_000n));
    await expectLedgerOk(
      app.db,
      players.map((player) => player.id),
    );
  });

  it('share one transaction; a batch that fails writes nothing and leaves its plays to the full play', async () => {
    const app = fileApp();
    const game = await createGame(app.db, { entryFee: 10_000n, maximumPlayers: 50 });
    const players = await Promise.all(
      Array.from({ length: 3 }, () => createPlayer(app.db, { kobo: 50_000n })),
    );
    const sessions = await Promise.all(
      players.map(async (player) => {
        await bearerFor(app, player);
        const [session] = await rowsOf<{ id: string; version: number }>(
          app.db,
          sql`SELECT s.id, u.token_version AS version FROM sessions s JOIN users u ON u.id = s.user_id
              WHERE s.user_id = ${player.id} LIMIT 1`,
        );
        if (!session) throw new Error('no session');
        return session;
      }),
    );
    const now = new Date();
    const playOf = (index: number, session?: string): BatchedPlay => ({
      player: players[index]?.id as string,
      session: session ?? (sessions[index]?.id as string),
      tokenVersion: sessions[index]?.version as number,
      game: game.id,
      answer: 'Moi moi',
      seenFee: null,
      seenReward: null,
      at: now.toISOString(),
      dayStart: lagosDayStart(now).toISOString(),
    });
    const batcher = new PlayBatcher((app.db as unknown as { $client: PositionalClient }).$client);

    // A play PostgreSQL cannot read (a session id that is not a uuid) fails its whole batch.
    const failed = await Promise.all([batcher.play(playOf(0)), batcher.play(playOf(1, 'no-uuid'))]);
    expect(failed).toEqual([null, null]);
    const written = await app.db.select().from(gameEntries).where(eq(gameEntries.gameId, game.id));
    expect(written).toHaveLength(0);

    // Plays of one turn: one batch, so one transaction wrote their entries.
    const played = await Promise.all([0, 1, 2].map((index) => batcher.play(playOf(index))));
    const entries = played.map((row) => {
      expect(row).toMatchObject({ game: game.id, refusal: null });
      return Number(row && 'entry' in row ? row.entry : Number.NaN);
    });
    expect(played.map((row) => (row && 'players' in row ? row.players : 0)).sort()).toEqual([
      1, 2, 3,
    ]);
    expect((await writersOf(app, entries)).size).toBe(1);
    await expectLedgerOk(
      app.db,
      players.map((player) => player.id),
    );
  });
});
