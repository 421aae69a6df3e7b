import { createHash } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  categories,
  gameEntries,
  games,
  gameWinners,
  jobs,
  notifications,
  users,
} from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createGame,
  createPlayer,
  createUser,
  play,
  testClock,
  type UserRow,
  uniqueSuffix,
} from '../../test/factories.ts';
import { expectLedgerOk } from '../../test/ledger.ts';

const database = testDatabasePerFile();
const testApp = testAppPerFile(database);

/** Draw and cancellation notices; tournament announcements may reach anyone at any time. */
const RESULT_TITLES = ['You won!', 'Results are in', 'Game cancelled'];

const NEW_GAME = {
  title: 'Name a Nollywood classic',
  description: 'One title.\nNo spoilers.',
  entryFee: 100,
  reward: 450,
  maximumPlayers: 10,
};

async function asAdmin(app: FastifyInstance) {
  const admin = await createUser(app.db, { role: 'admin' });
  const headers = await bearerFor(app, admin);
  return {
    admin,
    request: (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) }),
  };
}

async function balances(app: FastifyInstance, people: UserRow[]) {
  const rows = await app.db
    .select({ id: users.id, balance: users.accountBalance })
    .from(users)
    .where(
      inArray(
        users.id,
        people.map((person) => person.id),
      ),
    );
  return people.map((person) => rows.find((row) => row.id === person.id)?.balance);
}

describe('admin game endpoints', () => {
  it('answer 401 without a token and 403 to players', async () => {
    const app = testApp();
    const game = await createGame(app.db);
    const player = await createUser(app.db);
    const routes: Array<['GET' | 'POST' | 'PUT', string, object | undefined]> = [
      ['GET', '/admin/games', undefined],
      ['POST', '/admin/games', NEW_GAME],
      ['PUT', `/admin/games/${game.id}`, NEW_GAME],
      ['POST', `/admin/games/${game.id}/close`, undefined],
      ['POST', `/admin/games/${game.id}/cancel`, { reason: 'testing' }],
      ['GET', `/admin/games/${game.id}/entries`, undefined],
    ];
    for (const [method, url, payload] of routes) {
      const anonymous = await app.inject({ method, url: `/api/v1${url}`, payload });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const asPlayer = await app.inject({
        method,
        url: `/api/v1${url}`,
        payload,
        headers: await bearerFor(app, player),
      });
      expect(asPlayer.json(), `${method} ${url}`).toEqual({
        statusCode: 403,
        code: 'OPERATORS_ONLY',
        message: 'Only operators can do this',
      });
    }
    const [untouched] = await app.db.select().from(games).where(eq(games.id, game.id));
    expect(untouched?.status).toBe('ONGOING');
    await app.db.update(games).set({ status: 'CANCELLED' }).where(eq(games.id, game.id));
  });

  it('create a game with a fresh commitment, live now or upcoming, and validate it', async () => {
    const app = testApp();
    const { request } = await asAdmin(app);
    const [category] = await app.db
      .insert(categories)
      .values({ title: `Admin category ${uniqueSuffix()}`, emoji: '🎬' })
      .returning();

    const created = await request('POST', '/admin/games', {
      ...NEW_GAME,
      categoryID: category?.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const game = created.json().data;
    expect(created.json().message).toBe('Game created');
    expect(game).toMatchObject({
      title: NEW_GAME.title,
      description: NEW_GAME.description,
      categoryID: category?.id,
      entryFee: 100,
      reward: 450,
      maximumPlayers: 10,
      playerCount: 0,
      status: 'ONGOING',
      isTournament: false,
      startsAt: null,
      endsAt: null,
    });
    const [row] = await app.db.select().from(games).where(eq(games.id, game.id));
    if (!row) throw new Error('game not stored');
    expect(row.entryFee).toBe(10_000n);
    expect(row.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(game.commitment).toBe(
      createHash('sha256').update(Buffer.from(row.seed, 'hex')).digest('hex'),
    );
    expect(created.body).not.toContain(row.seed);

    const startsAt = new Date(Date.now() + 86_400_000 * 365 * 500).toISOString();
    const upcoming = await request('POST', '/admin/games', {
      ...NEW_GAME,
      isTournament: true,
      startsAt,
    });
    expect(upcoming.json().data).toMatchObject({ status: 'UPCOMING', isTournament: true });
    expect(upcoming.json().data.commitment).not.toBe(game.commitment);

    // The body's rules are the schema's; the category is looked up once the body is valid.
    const refusals: Array<[object, string, string]> = [
      [
        { ...NEW_GAME, maximumPlayers: 4 },
        'A game needs room for at least 5 players',
        'VALIDATION_FAILED',
      ],
      [{ ...NEW_GAME, title: 'No' }, 'Title must be at least 3 characters', 'VALIDATION_FAILED'],
      [{ ...NEW_GAME, reward: -1 }, 'Reward cannot be negative', 'VALIDATION_FAILED'],
      [
        { ...NEW_GAME, startsAt: '2031-01-02T00:00:00Z', endsAt: '2031-01-01T00:00:00Z' },
        'The end time must be after the start time',
        'VALIDATION_FAILED',
      ],
      [
        { ...NEW_GAME, categoryID: '00000000-0000-4000-8000-000000000000' },
        'That category does not exist',
        'BAD_REQUEST',
      ],
    ];
    for (const [body, message, code] of refusals) {
      expect((await request('POST', '/admin/games', body)).json()).toEqual({
        statusCode: 400,
        code,
        message,
      });
    }
    await app.db
      .update(games)
      .set({ status: 'CANCELLED' })
      .where(inArray(games.id, [game.id, upcoming.json().data.id]));
  });

  it('edit only while nobody has played: 409 once someone has', async () => {
    const app = testApp();
    const { request } = await asAdmin(app);
    const created = (await request('POST', '/admin/games', NEW_GAME)).json().data;

    const edited = await request('PUT', `/admin/games/${created.id}`, {
      ...NEW_GAME,
      title: 'Name a Nollywood classic (edited)',
      entryFee: 0,
      maximumPlayers: 6,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      message: 'Game updated',
      data: {
        id: created.id,
        title: 'Name a Nollywood classic (edited)',
        entryFee: 0,
        maximumPlayers: 6,
        commitment: created.commitment,
      },
    });

    const badCategory = await request('PUT', `/admin/games/${created.id}`, {
      ...NEW_GAME,
      categoryID: '00000000-0000-4000-8000-000000000000',
    });
    expect(badCategory.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: 'That category does not exist',
    });

    const player = await createPlayer(app.db);
    expect((await play(app, player, created.id)).statusCode).toBe(201);
    const refused = await request('PUT', `/admin/games/${created.id}`, {
      ...NEW_GAME,
      entryFee: 1_000,
    });
    expect(refused.json()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'This game already has players (or has ended) and can no longer be edited',
    });
    const [row] = await app.db.select().from(games).where(eq(games.id, created.id));
    expect(row?.entryFee).toBe(0n);

    const missing = await request(
      'PUT',
      '/admin/games/00000000-0000-4000-8000-000000000000',
      NEW_GAME,
    );
    expect(missing.json()).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'Game not found',
    });
    await app.db.update(games).set({ status: 'CANCELLED' }).where(eq(games.id, created.id));
  });

  it('close queues the draw, which then runs; closing twice is refused', async () => {
    const app = testApp();
    const { request } = await asAdmin(app);
    const game = await createGame(app.db, { reward: 20_000n, maximumPlayers: 50 });
    const players = await Promise.all(Array.from({ length: 5 }, () => createPlayer(app.db)));
    for (const player of players) expect((await play(app, player, game.id)).statusCode).toBe(201);

    const closed = await request('POST', `/admin/games/${game.id}/close`);
    expect(closed.json()).toEqual({ message: 'Game closed. The draw runs in a moment.' });
    const [job] = await app.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `draw:${game.id}`));
    expect(job?.kind).toBe('draw');
    expect((await request('POST', `/admin/games/${game.id}/close`)).json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: 'This game is already closed',
    });
    const missing = await request(
      'POST',
      '/admin/games/00000000-0000-4000-8000-000000000000/close',
    );
    expect(missing.statusCode).toBe(404);

    await app.jobs.runDue();
    const [row] = await app.db.select().from(games).where(eq(games.id, game.id));
    expect(row?.status).toBe('COMPLETED');
    const after = await balances(app, players);
    expect(after.filter((balance) => balance === 20_000n)).toHaveLength(1);
    expect(after.filter((balance) => balance === 0n)).toHaveLength(4);

    const entries = await request('GET', `/admin/games/${game.id}/entries`);
    expect(entries.json().data).toHaveLength(5);
    expect(
      entries.json().data.filter((entry: { isWinner: boolean }) => entry.isWinner),
    ).toHaveLength(1);
    await expectLedgerOk(
      app.db,
      players.map((p) => p.id),
    );
  });

  it('cancel refunds every fee, tells every player, and stops a queued draw', async () => {
    // Time stands still: on a slow machine the 3 s to the draw's beacon round could pass between
    // the close and the cancel, and a public outcome may not be cancelled (fairness.test.ts).
    const app = await buildTestApp(database(), {}, { clock: testClock() });
    const { request } = await asAdmin(app);
    const game = await createGame(app.db, {
      entryFee: 10_000n,
      reward: 30_000n,
      maximumPlayers: 8,
    });
    const players = await Promise.all(
      Array.from({ length: 6 }, () => createPlayer(app.db, { kobo: 25_000n })),
    );
    for (const player of players) expect((await play(app, player, game.id)).statusCode).toBe(201);
    expect(await balances(app, players)).toEqual(Array(6).fill(15_000n));
    // Closed, its draw queued, then cancelled before the worker gets to it.
    await request('POST', `/admin/games/${game.id}/close`);

    expect((await request('POST', `/admin/games/${game.id}/cancel`, {})).json()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Give a reason',
    });
    expect(
      (await request('POST', `/admin/games/${game.id}/cancel`, { reason: 'x' })).json(),
    ).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Give a reason of at least 3 characters',
    });
    const cancelled = await request('POST', `/admin/games/${game.id}/cancel`, {
      reason: 'a duplicate question',
    });
    expect(cancelled.json()).toEqual({
      message: 'Game cancelled; 6 player(s) refunded and notified',
    });
    expect(await balances(app, players)).toEqual(Array(6).fill(25_000n));

    await app.jobs.runDue();
    const [row] = await app.db.select().from(games).where(eq(games.id, game.id));
    expect(row?.status).toBe('CANCELLED');
    expect(await balances(app, players)).toEqual(Array(6).fill(25_000n));
    const entries = await app.db.select().from(gameEntries).where(eq(gameEntries.gameId, game.id));
    expect(entries.every((entry) => entry.refunded)).toBe(true);
    expect(await app.db.select().from(gameWinners).where(eq(gameWinners.gameId, game.id))).toEqual(
      [],
    );

    const told = await app.db
      .select({ title: notifications.title, message: notifications.message })
      .from(notifications)
      .where(
        and(
          inArray(
            notifications.userId,
            players.map((player) => player.id),
          ),
          inArray(notifications.title, RESULT_TITLES),
        ),
      );
    expect(told).toEqual(
      Array(6).fill({
        title: 'Game cancelled',
        message: `"${game.title}" was cancelled by the Pluckers team (a duplicate question). Your entry fee of ₦100 has been refunded to your wallet.`,
      }),
    );
    // The player's submissions show it as refunded (no result), not as lost.
    const played = await app.inject({
      url: '/api/v1/game/played',
      headers: await bearerFor(app, players[0] as UserRow),
    });
    expect(played.json().data[0]).toMatchObject({
      isWinner: null,
      amountPaid: 100,
      game: { id: game.id, status: 'CANCELLED' },
    });

    expect(
      (await request('POST', `/admin/games/${game.id}/cancel`, { reason: 'again' })).json(),
    ).toEqual({ statusCode: 400, code: 'BAD_REQUEST', message: 'This game is already cancelled' });
    await expectLedgerOk(
      app.db,
      players.map((p) => p.id),
    );
  });
});
