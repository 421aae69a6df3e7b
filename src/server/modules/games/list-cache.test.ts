import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Game } from '../../../shared/schemas/games.ts';
import { gameEntries, games } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { eventually, withoutNotifications } from '../../test/cluster.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createGame,
  createUser,
  type GameRow,
  play,
  testClock,
  type UserRow,
} from '../../test/factories.ts';
import { GAME_LIST_TTL_MS, PLAYED_TTL_MS, REFRESH_AHEAD_MS } from './list-cache.ts';

const database = testDatabasePerFile();

/**
 * A moment of its own far in the future, so "newest first" puts this test's games on top even on
 * a PostgreSQL database other files write to at the same time.
 */
function privateMoment(): Date {
  const year = 2800 + Math.floor(Math.random() * 190);
  return new Date(Date.UTC(year, Math.floor(Math.random() * 12), 10, 12, 0, 0));
}

async function setUp() {
  const now = privateMoment();
  const clock = testClock(now);
  const app = await buildTestApp(database(), {}, { clock });
  const created: GameRow[] = [];
  // Games a test leaves live would crowd other tests' lists.
  onTestFinished(async () => {
    for (const game of created)
      await app.db.update(games).set({ status: 'CANCELLED' }).where(eq(games.id, game.id));
  });
  const newGame = async (values: Partial<typeof games.$inferInsert> = {}) => {
    const game = await createGame(app.db, { createdAt: clock.now(), ...values });
    created.push(game);
    return game;
  };
  return { app, clock, newGame };
}

async function newest(app: FastifyInstance, viewer: UserRow): Promise<Game[]> {
  const response = await app.inject({
    url: '/api/v1/game?gameType=NEW_CHALLANGES',
    headers: await bearerFor(app, viewer),
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return response.json().data.games;
}

const find = (list: Game[], id: string) => list.find((game) => game.id === id);

const entryOf = (userId: string, gameId: string, createdAt: Date) => ({
  gameId,
  userId,
  answer: 'elsewhere',
  amountPaid: 0n,
  createdAt,
});

/**
 * Whether nobody else writes to the test database: on a shared PostgreSQL, other files' changes
 * to games notify this app too, so the stale answer a lost notification leaves can end early.
 */
const aloneOnTheDatabase = () => database().kind === 'pglite';

describe('game list cache', () => {
  it('shows a game added behind its back (another instance) as soon as the database tells it', async () => {
    const { app, newGame } = await setUp();
    const viewer = await createUser(app.db);
    const first = await newGame();
    expect(find(await newest(app, viewer), first.id)).toBeDefined();

    // Straight into the database, as another server instance would.
    const second = await newGame();
    await eventually(
      async () =>
        expect(find(await newest(app, viewer), second.id)).toMatchObject({
          id: second.id,
          status: 'ONGOING',
          hasPlayedGame: false,
        }),
      100,
    );
  });

  it('serves a list from memory for GAME_LIST_TTL_MS when the notification of a change is lost', async () => {
    const { app, clock, newGame } = await setUp();
    const viewer = await createUser(app.db);
    const game = await newGame();
    expect(find(await newest(app, viewer), game.id)).toMatchObject({ title: game.title });

    await withoutNotifications(app.db, (tx) =>
      tx.update(games).set({ title: 'Renamed elsewhere' }).where(eq(games.id, game.id)),
    );
    if (aloneOnTheDatabase())
      expect(find(await newest(app, viewer), game.id)).toMatchObject({ title: game.title });

    clock.advance(GAME_LIST_TTL_MS);
    expect(find(await newest(app, viewer), game.id)).toMatchObject({ title: 'Renamed elsewhere' });
  });

  it('keeps a list and its prepared answers when a refresh by age finds nothing changed', async () => {
    const { app, clock, newGame } = await setUp();
    const viewer = await createUser(app.db);
    const game = await newGame();
    expect(find(await newest(app, viewer), game.id)).toMatchObject({ title: game.title });
    const before = app.gameLists.cachedResponse('NEW_CHALLANGES', viewer.id);
    expect(before).toBeDefined();

    clock.advance(GAME_LIST_TTL_MS);
    expect(app.gameLists.cachedResponse('NEW_CHALLANGES', viewer.id)).toBeUndefined();
    expect(find(await newest(app, viewer), game.id)).toMatchObject({ title: game.title });
    const after = app.gameLists.cachedResponse('NEW_CHALLANGES', viewer.id);
    expect(after?.etag).toBe(before?.etag);
    // Other files' changes to games on a shared PostgreSQL make this app build its lists anew.
    if (aloneOnTheDatabase()) expect(after).toBe(before);
  });

  it('reads a list again in the background before its age is spent, serving it meanwhile', async () => {
    const { app, clock, newGame } = await setUp();
    const viewer = await createUser(app.db);
    const game = await newGame();
    expect(find(await newest(app, viewer), game.id)).toMatchObject({ title: game.title });
    await withoutNotifications(app.db, (tx) =>
      tx.update(games).set({ title: 'Renamed elsewhere' }).where(eq(games.id, game.id)),
    );

    clock.advance(REFRESH_AHEAD_MS);
    // Still within its age: answered from memory at once, and read again behind it.
    expect(app.gameLists.cachedResponse('NEW_CHALLANGES', viewer.id)).toBeDefined();
    await eventually(async () => {
      const prepared = app.gameLists.cachedResponse('NEW_CHALLANGES', viewer.id);
      expect(prepared?.body.toString('utf8')).toContain('Renamed elsewhere');
    }, 1_000);
  });

  it("shows a play at once: the player's hasPlayedGame and the new count, for everyone", async () => {
    const { app, newGame } = await setUp();
    const [player, other] = [await createUser(app.db), await createUser(app.db)];
    const game = await newGame();
    expect(find(await newest(app, player), game.id)).toMatchObject({
      playerCount: 0,
      hasPlayedGame: false,
    });
    expect(find(await newest(app, other), game.id)).toMatchObject({ hasPlayedGame: false });

    expect((await play(app, player, game.id)).statusCode).toBe(201);

    expect(find(await newest(app, player), game.id)).toMatchObject({
      playerCount: 1,
      hasPlayedGame: true,
    });
    expect(find(await newest(app, other), game.id)).toMatchObject({
      playerCount: 1,
      hasPlayedGame: false,
    });
  });

  it("shows the worker's and the operators' changes at once", async () => {
    const { app, clock, newGame } = await setUp();
    const viewer = await createUser(app.db);
    const admin = await createUser(app.db, { role: 'admin' });
    const due = await newGame({ status: 'UPCOMING', startsAt: clock.now() });
    const live = await newGame();
    expect(find(await newest(app, viewer), due.id)?.status).toBe('UPCOMING');

    await app.jobs.runDue();
    expect(find(await newest(app, viewer), due.id)?.status).toBe('ONGOING');

    const closed = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/games/${live.id}/close`,
      headers: await bearerFor(app, admin),
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(find(await newest(app, viewer), live.id)).toBeUndefined();
  });

  it("shows a player's entry made elsewhere (another instance) as soon as the database tells it", async () => {
    const { app, clock, newGame } = await setUp();
    const player = await createUser(app.db);
    const game = await newGame();
    expect(find(await newest(app, player), game.id)?.hasPlayedGame).toBe(false);

    await app.db.insert(gameEntries).values(entryOf(player.id, game.id, clock.now()));
    await eventually(
      async () => expect(find(await newest(app, player), game.id)?.hasPlayedGame).toBe(true),
      100,
    );
  });

  it("trusts what it learnt of a player's entries for PLAYED_TTL_MS when a notification is lost", async () => {
    const { app, clock, newGame } = await setUp();
    const player = await createUser(app.db);
    const game = await newGame();
    expect(find(await newest(app, player), game.id)?.hasPlayedGame).toBe(false);

    await withoutNotifications(app.db, (tx) =>
      tx.insert(gameEntries).values(entryOf(player.id, game.id, clock.now())),
    );
    clock.advance(GAME_LIST_TTL_MS);
    if (aloneOnTheDatabase())
      expect(find(await newest(app, player), game.id)?.hasPlayedGame).toBe(false);

    clock.advance(PLAYED_TTL_MS);
    expect(find(await newest(app, player), game.id)?.hasPlayedGame).toBe(true);
  });

  it('answers requests that arrive together with the same list', async () => {
    const { app, newGame } = await setUp();
    const viewers = await Promise.all(Array.from({ length: 20 }, () => createUser(app.db)));
    const game = await newGame();
    const lists = await Promise.all(viewers.map((viewer) => newest(app, viewer)));
    for (const list of lists) expect(find(list, game.id)).toMatchObject({ hasPlayedGame: false });
    expect(new Set(lists.map((list) => JSON.stringify(list))).size).toBe(1);
  });

  it('sends the list gzipped to clients that accept it, the same JSON as the plain one', async () => {
    const { app, newGame } = await setUp();
    const viewer = await createUser(app.db);
    const headers = await bearerFor(app, viewer);
    for (let made = 0; made < 6; made += 1) await newGame();
    const url = '/api/v1/game?gameType=NEW_CHALLANGES';

    const plain = await app.inject({ url, headers });
    const zipped = await app.inject({
      url,
      headers: { ...headers, 'accept-encoding': 'gzip, deflate, br' },
    });

    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('tags each answer, and answers a revalidation of an unchanged list 304 with no body, plain or gzip', async () => {
    const { app, newGame } = await setUp();
    const viewer = await createUser(app.db);
    const headers = await bearerFor(app, viewer);
    for (let made = 0; made < 6; made += 1) await newGame();
    const url = '/api/v1/game?gameType=NEW_CHALLANGES';

    const first = await app.inject({ url, headers });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');

    for (const encoding of [undefined, 'gzip, deflate, br']) {
      const again = await app.inject({
        url,
        headers: {
          ...headers,
          'if-none-match': etag,
          ...(encoding ? { 'accept-encoding': encoding } : {}),
        },
      });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
    }
    const otherTag = await app.inject({ url, headers: { ...headers, 'if-none-match': 'W/"x"' } });
    expect(otherTag.statusCode).toBe(200);
    expect(otherTag.json()).toEqual(first.json());
  });

  it("gives each player's played marks their own tag, and a play makes the old tags stale", async () => {
    const { app, newGame } = await setUp();
    const [player, other] = [await createUser(app.db), await createUser(app.db)];
    const game = await newGame();
    const url = '/api/v1/game?gameType=NEW_CHALLANGES';
    const tagOf = async (viewer: UserRow, ifNoneMatch?: string) => {
      const response = await app.inject({
        url,
        headers: {
          ...(await bearerFor(app, viewer)),
          ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
        },
      });
      return { status: response.statusCode, etag: String(response.headers.etag), response };
    };
    const before = await tagOf(player);
    // Same list, same marks: the same bytes and the same tag for both.
    expect((await tagOf(other)).etag).toBe(before.etag);

    expect((await play(app, player, game.id)).statusCode).toBe(201);

    const mine = await tagOf(player, before.etag);
    expect(mine.status).toBe(200);
    expect(find(mine.response.json().data.games, game.id)).toMatchObject({
      hasPlayedGame: true,
      playerCount: 1,
    });
    const theirs = await tagOf(other, before.etag);
    expect(theirs.status).toBe(200);
    expect(find(theirs.response.json().data.games, game.id)).toMatchObject({
      hasPlayedGame: false,
      playerCount: 1,
    });
    expect(theirs.etag).not.toBe(mine.etag);
    expect((await tagOf(player, mine.etag)).status).toBe(304);
  });

  it('tags a list alike on every instance, and a play on one makes the tags of the others stale', async () => {
    const { app: first, clock, newGame } = await setUp();
    const second = await buildTestApp(database(), {}, { clock });
    const [player, other] = [await createUser(first.db), await createUser(first.db)];
    const game = await newGame();
    const url = '/api/v1/game?gameType=NEW_CHALLANGES';
    const ask = async (app: FastifyInstance, viewer: UserRow, ifNoneMatch?: string) =>
      app.inject({
        url,
        headers: {
          ...(await bearerFor(app, viewer)),
          ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
        },
      });
    const tag = String((await ask(first, other)).headers.etag);
    // A revalidation the balancer sends to the other instance is still a 304.
    expect((await ask(second, other, tag)).statusCode).toBe(304);

    expect((await play(second, player, game.id)).statusCode).toBe(201);

    await eventually(async () => {
      const fresh = await ask(first, other, tag);
      expect(fresh.statusCode).toBe(200);
      expect(find(fresh.json().data.games, game.id)).toMatchObject({ playerCount: 1 });
    }, 1_000);
    const mine = await ask(first, player);
    expect(find(mine.json().data.games, game.id)?.hasPlayedGame).toBe(true);
    expect((await ask(second, player, String(mine.headers.etag))).statusCode).toBe(304);
  });
});
