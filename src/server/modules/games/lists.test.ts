import { and, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Game, PlayedGame } from '../../../shared/schemas/games.ts';
import { gameEntries, games, gameWinners } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createGame,
  createUser,
  type GameRow,
  testClock,
  type UserRow,
} from '../../test/factories.ts';

const database = testDatabasePerFile();
const testApp = testAppPerFile(database);
const HOUR = 3_600_000;

/**
 * A moment of its own far in the future: "the last 24 hours" and "newest" then only see this
 * test's rows, even on a PostgreSQL database other files write to at the same time.
 */
function privateMoment(): Date {
  const year = 2150 + Math.floor(Math.random() * 600);
  return new Date(Date.UTC(year, Math.floor(Math.random() * 12), 10, 12, 0, 0));
}

/**
 * Games a test leaves live would crowd other tests' lists: they end cancelled (all free). Drawn
 * and cancelled ones stay as they are, which is all the lifecycle allows them.
 */
function cancelAfterTest(app: FastifyInstance, rows: GameRow[]) {
  onTestFinished(async () => {
    await app.db
      .update(games)
      .set({ status: 'CANCELLED' })
      .where(
        and(
          inArray(
            games.id,
            rows.map((row) => row.id),
          ),
          inArray(games.status, ['UPCOMING', 'ONGOING', 'CLOSED']),
        ),
      );
  });
}

async function addEntries(
  app: FastifyInstance,
  game: GameRow,
  times: Date[],
  players?: UserRow[],
): Promise<UserRow[]> {
  const users = players ?? (await Promise.all(times.map(() => createUser(app.db))));
  if (times.length > 0) {
    await app.db.insert(gameEntries).values(
      times.map((createdAt, index) => ({
        gameId: game.id,
        userId: (users[index] as UserRow).id,
        answer: 'an answer',
        amountPaid: 0n,
        createdAt,
      })),
    );
  }
  return users;
}

async function list(app: FastifyInstance, viewer: UserRow, gameType: string): Promise<Game[]> {
  const response = await app.inject({
    url: `/api/v1/game?gameType=${gameType}`,
    headers: await bearerFor(app, viewer),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.games;
}

const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);

describe('game lists', () => {
  it('TRENDING: ongoing games by entries in the last 24 hours, then by player count', async () => {
    const now = privateMoment();
    const app = await buildTestApp(database(), {}, { clock: testClock(now) });
    const ago = (hours: number) => new Date(now.getTime() - hours * HOUR);

    const a = await createGame(app.db, { playerCount: 3 });
    const b = await createGame(app.db, { playerCount: 7 });
    const c = await createGame(app.db, { playerCount: 4 });
    // No entry in the window but by far the most players of any game.
    const d = await createGame(app.db, { maximumPlayers: 1_000_000, playerCount: 999_999 });
    const closed = await createGame(app.db, { status: 'CLOSED', playerCount: 5 });
    const upcoming = await createGame(app.db, {
      status: 'UPCOMING',
      startsAt: new Date('2999-01-01T00:00:00Z'),
    });
    cancelAfterTest(app, [a, b, c, d, closed, upcoming]);

    const [viewer] = await addEntries(app, a, [ago(1), ago(2), ago(23.9)]);
    await addEntries(app, b, [ago(0.5), ago(3), ago(24.01), ago(30), ago(48), ago(100), ago(200)]);
    await addEntries(app, c, [ago(5), ago(6), ago(25), ago(26)]);
    await addEntries(app, closed, [ago(1), ago(1), ago(1), ago(1), ago(1)]);
    if (!viewer) throw new Error('no viewer');

    const trending = await list(app, viewer, 'TRENDING');
    // a: 3 recent; b and c: 2 recent each, b has more players; d: none recent, most players.
    expect(ids(trending.slice(0, 4))).toEqual([a.id, b.id, c.id, d.id]);
    expect(ids(trending)).not.toContain(closed.id);
    expect(ids(trending)).not.toContain(upcoming.id);
    expect(trending.filter((game) => game.hasPlayedGame).map((game) => game.id)).toEqual([a.id]);

    // Without gameType the list is TRENDING; for someone else nothing is marked played.
    const stranger = await createUser(app.db);
    const response = await app.inject({
      url: '/api/v1/game',
      headers: await bearerFor(app, stranger),
    });
    const defaults: Game[] = response.json().data.games;
    expect(ids(defaults.slice(0, 4))).toEqual([a.id, b.id, c.id, d.id]);
    expect(defaults.some((game) => game.hasPlayedGame)).toBe(false);
  });

  it('NEW_CHALLANGES: upcoming and ongoing games, newest first', async () => {
    const now = privateMoment();
    const app = await buildTestApp(database(), {}, { clock: testClock(now) });
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
    const older = await createGame(app.db, { createdAt: at(1) });
    const upcoming = await createGame(app.db, {
      status: 'UPCOMING',
      startsAt: new Date('2999-01-01T00:00:00Z'),
      createdAt: at(3),
    });
    const ongoing = await createGame(app.db, { createdAt: at(2) });
    const closed = await createGame(app.db, { status: 'CLOSED', createdAt: at(5) });
    const completed = await createGame(app.db, { status: 'COMPLETED', createdAt: at(6) });
    const cancelled = await createGame(app.db, { status: 'CANCELLED', createdAt: at(7) });
    cancelAfterTest(app, [older, upcoming, ongoing, closed, completed]);
    const viewer = await createUser(app.db);
    await addEntries(app, ongoing, [now], [viewer]);

    const fresh = await list(app, viewer, 'NEW_CHALLANGES');
    expect(ids(fresh.slice(0, 3))).toEqual([upcoming.id, ongoing.id, older.id]);
    for (const hidden of [closed, completed, cancelled])
      expect(ids(fresh)).not.toContain(hidden.id);
    expect(fresh[0]).toMatchObject({ status: 'UPCOMING', hasPlayedGame: false });
    expect(fresh[1]).toMatchObject({ status: 'ONGOING', hasPlayedGame: true });
  });

  it('HIGHEST_PAYOUTS: ongoing games by reward', async () => {
    const app = testApp();
    // Rewards far above any other test's, so these lead the list on a shared database.
    const top = 9_000_000_000_000n;
    const second = await createGame(app.db, { reward: top + 2n });
    const first = await createGame(app.db, { reward: top + 3n });
    const third = await createGame(app.db, { reward: top + 1n });
    const upcoming = await createGame(app.db, {
      reward: top + 9n,
      status: 'UPCOMING',
      startsAt: new Date('2999-01-01T00:00:00Z'),
    });
    const closed = await createGame(app.db, { reward: top + 8n, status: 'CLOSED' });
    cancelAfterTest(app, [first, second, third, upcoming, closed]);
    const viewer = await createUser(app.db);
    await addEntries(app, third, [new Date()], [viewer]);

    const payouts = await list(app, viewer, 'HIGHEST_PAYOUTS');
    expect(ids(payouts.slice(0, 3))).toEqual([first.id, second.id, third.id]);
    expect(payouts[0]?.reward).toBe(Number(top + 3n) / 100);
    expect(ids(payouts)).not.toContain(upcoming.id);
    expect(ids(payouts)).not.toContain(closed.id);
    expect(payouts.slice(0, 3).map((game) => game.hasPlayedGame)).toEqual([false, false, true]);
  });

  it('TOURNAMENT: upcoming and ongoing tournaments only', async () => {
    const app = testApp();
    const live = await createGame(app.db, {
      isTournament: true,
      startsAt: new Date('1990-01-01T00:00:00Z'),
    });
    const soon = await createGame(app.db, {
      isTournament: true,
      status: 'UPCOMING',
      startsAt: new Date('2999-06-01T00:00:00Z'),
    });
    const over = await createGame(app.db, { isTournament: true, status: 'CLOSED' });
    const done = await createGame(app.db, { isTournament: true, status: 'COMPLETED' });
    const ordinary = await createGame(app.db, { startsAt: new Date('1990-01-01T00:00:00Z') });
    cancelAfterTest(app, [live, soon, over, ordinary]);
    const viewer = await createUser(app.db);
    await addEntries(app, live, [new Date()], [viewer]);

    const tournaments = await list(app, viewer, 'TOURNAMENT');
    const listed = ids(tournaments);
    expect(listed).toContain(live.id);
    expect(listed).toContain(soon.id);
    expect(listed.indexOf(live.id)).toBeLessThan(listed.indexOf(soon.id));
    for (const hidden of [over, done, ordinary]) expect(listed).not.toContain(hidden.id);
    expect(tournaments.every((game) => game.isTournament)).toBe(true);
    expect(tournaments.find((game) => game.id === live.id)?.hasPlayedGame).toBe(true);
    expect(tournaments.find((game) => game.id === soon.id)?.hasPlayedGame).toBe(false);
  });

  it('refuses an unknown list type and a missing token', async () => {
    const app = testApp();
    const viewer = await createUser(app.db);
    const bad = await app.inject({
      url: '/api/v1/game?gameType=POPULAR',
      headers: await bearerFor(app, viewer),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(
      'gameType must be one of TRENDING, NEW_CHALLANGES, HIGHEST_PAYOUTS, TOURNAMENT',
    );
    expect((await app.inject({ url: '/api/v1/game' })).statusCode).toBe(401);
  });
});

describe('one game and played games', () => {
  it('GET /game/:id serves a deep link with hasPlayedGame and never the seed', async () => {
    // Its own app: it reads every list, and the shared app would then serve the list tests
    // above from its cache (GAME_LIST_TTL_MS) without the games they have just made.
    const app = await buildTestApp(database());
    const game = await createGame(app.db, {
      title: 'Best Lagos street food?',
      description: 'Line one\nLine two',
      entryFee: 25_000n,
      reward: 100_000n,
      maximumPlayers: 20,
      isTournament: true,
      endsAt: new Date('2999-01-01T00:00:00Z'),
    });
    cancelAfterTest(app, [game]);
    const player = await createUser(app.db);
    const other = await createUser(app.db);
    await addEntries(app, game, [new Date()], [player]);

    const response = await app.inject({
      url: `/api/v1/game/${game.id}`,
      headers: await bearerFor(app, player),
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain(game.seed);
    expect(response.json().data).toEqual({
      id: game.id,
      title: 'Best Lagos street food?',
      description: 'Line one\nLine two',
      categoryID: null,
      entryFee: 250,
      reward: 1000,
      maximumPlayers: 20,
      playerCount: 0,
      status: 'ONGOING',
      isTournament: true,
      hasPlayedGame: true,
      startsAt: null,
      endsAt: '2999-01-01T00:00:00.000Z',
      commitment: game.commitment,
      createdAt: game.createdAt.toISOString(),
    });
    const forOther = await app.inject({
      url: `/api/v1/game/${game.id}`,
      headers: await bearerFor(app, other),
    });
    expect(forOther.json().data.hasPlayedGame).toBe(false);

    const missing = await app.inject({
      url: '/api/v1/game/00000000-0000-4000-8000-000000000000',
      headers: await bearerFor(app, player),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Game not found');
    const malformed = await app.inject({
      url: '/api/v1/game/not-an-id',
      headers: await bearerFor(app, player),
    });
    expect(malformed.statusCode).toBe(400);
    expect((await app.inject({ url: `/api/v1/game/${game.id}` })).statusCode).toBe(401);

    for (const gameType of ['TRENDING', 'NEW_CHALLANGES', 'HIGHEST_PAYOUTS', 'TOURNAMENT']) {
      const listed = await app.inject({
        url: `/api/v1/game?gameType=${gameType}`,
        headers: await bearerFor(app, player),
      });
      expect(listed.body).not.toContain(game.seed);
    }
  });

  it("GET /game/played lists pending, won and lost entries, newest first, only the caller's", async () => {
    const app = testApp();
    const player = await createUser(app.db);
    const other = await createUser(app.db);
    const pending = await createGame(app.db, { entryFee: 10_000n, reward: 40_000n });
    const won = await createGame(app.db, { status: 'COMPLETED', reward: 75_000n });
    const lost = await createGame(app.db, {
      status: 'COMPLETED',
      entryFee: 5_000n,
      isTournament: true,
    });
    cancelAfterTest(app, [pending]);
    const base = Date.now() - 3 * HOUR;
    const insert = async (game: GameRow, minutes: number, isWinner: boolean, answer: string) => {
      const rows = await app.db
        .insert(gameEntries)
        .values({
          gameId: game.id,
          userId: player.id,
          answer,
          amountPaid: game.entryFee,
          createdAt: new Date(base + minutes * 60_000),
        })
        .returning();
      const [entry] = rows;
      if (entry && isWinner)
        await app.db.insert(gameWinners).values({
          gameId: game.id,
          entryId: entry.id,
          userId: entry.userId,
          prize: game.reward,
          createdAt: entry.createdAt,
        });
      return rows;
    };
    const [lostEntry] = await insert(lost, 0, false, 'too slow');
    const [wonEntry] = await insert(won, 10, true, 'just right');
    const [pendingEntry] = await insert(pending, 20, false, 'waiting');
    await app.db
      .insert(gameEntries)
      .values({ gameId: won.id, userId: other.id, answer: 'not mine', amountPaid: 0n });
    if (!lostEntry || !wonEntry || !pendingEntry) throw new Error('entries missing');

    const response = await app.inject({
      url: '/api/v1/game/played',
      headers: await bearerFor(app, player),
    });
    expect(response.statusCode).toBe(200);
    const played: PlayedGame[] = response.json().data;
    expect(played.map((row) => row.isWinner)).toEqual([null, true, false]);
    expect(played[0]).toEqual({
      id: String(pendingEntry.id),
      game: {
        id: pending.id,
        title: pending.title,
        isTournament: false,
        maximumPlayers: 10,
        playerCount: 0,
        status: 'ONGOING',
        endsAt: null,
      },
      submittedAnswer: 'waiting',
      amountPaid: 100,
      amountToWin: 400,
      isWinner: null,
      createdAt: pendingEntry.createdAt.toISOString(),
    });
    expect(played[1]).toMatchObject({
      id: String(wonEntry.id),
      game: { id: won.id, status: 'COMPLETED' },
      submittedAnswer: 'just right',
      amountPaid: 0,
      amountToWin: 750,
      isWinner: true,
    });
    expect(played[2]).toMatchObject({
      id: String(lostEntry.id),
      game: { id: lost.id, isTournament: true, status: 'COMPLETED' },
      amountPaid: 50,
      isWinner: false,
    });
    for (const row of [pending, won, lost]) expect(response.body).not.toContain(row.seed);

    const newcomer = await createUser(app.db);
    const empty = await app.inject({
      url: '/api/v1/game/played',
      headers: await bearerFor(app, newcomer),
    });
    expect(empty.json()).toEqual({ data: [] });
  });
});
