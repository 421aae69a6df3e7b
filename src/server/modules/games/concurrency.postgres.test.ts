import { and, eq, inArray, like, lt, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  gameEntries,
  games,
  jobs,
  ledgerEntries,
  ledgerTransactions,
  users,
} from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  actorFor,
  bearerFor,
  createGame,
  createPlan,
  createPlayer,
  type UserRow,
} from '../../test/factories.ts';
import { expectLedgerOk } from '../../test/ledger.ts';
import { minimumBalanceMessage, playGame } from './service.ts';

const database = testDatabasePerFile();

// Real concurrency needs real connections: PGlite runs one statement at a time, so these run on
// PostgreSQL only (vitest.config.ts includes *.postgres.test.ts when TEST_DATABASE_URL is set),
// where the test database is a pool of 10 connections.
describe('concurrent plays on PostgreSQL', () => {
  it('60 players race for the last 10 places of a paid game: 10 get in, 50 are told it is full', async () => {
    const app = await buildTestApp(database());
    const fee = 20_000n;
    // Reward 0: if another test's worker draws the game mid-test, balances do not move.
    const game = await createGame(app.db, { entryFee: fee, reward: 0n, maximumPlayers: 20 });
    const early = await Promise.all(
      Array.from({ length: 10 }, () => createPlayer(app.db, { kobo: fee })),
    );
    for (const player of early) {
      await playGame(
        app.db,
        await actorFor(app.db, player),
        { gameID: game.id, submittedAnswer: 'early bird' },
        new Date(),
      );
    }
    const racers = await Promise.all(
      Array.from({ length: 60 }, () => createPlayer(app.db, { kobo: 30_000n })),
    );
    const headers = await Promise.all(racers.map((racer) => bearerFor(app, racer)));

    const responses = await Promise.all(
      racers.map((_, i) =>
        app.inject({
          method: 'POST',
          url: '/api/v1/game/play',
          headers: headers[i],
          payload: { gameID: game.id, submittedAnswer: `racer number ${i}` },
        }),
      ),
    );
    const admitted = responses.filter((response) => response.statusCode === 201);
    const refused = responses.filter((response) => response.statusCode !== 201);
    expect(admitted).toHaveLength(10);
    expect(refused).toHaveLength(50);
    for (const response of refused) {
      expect(response.json()).toEqual({
        statusCode: 409,
        code: 'GAME_FULL',
        message: 'This game is full. Try another one.',
      });
    }
    expect(
      admitted.map((response) => response.json().data.playerCount).sort((a, b) => a - b),
    ).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);

    const [row] = await app.db.select().from(games).where(eq(games.id, game.id));
    expect(row?.playerCount).toBe(20);
    expect(['CLOSED', 'COMPLETED']).toContain(row?.status);
    const entries = await app.db.select().from(gameEntries).where(eq(gameEntries.gameId, game.id));
    expect(entries).toHaveLength(20);
    expect(
      await app.db
        .select()
        .from(jobs)
        .where(eq(jobs.key, `draw:${game.id}`)),
    ).toHaveLength(1);

    const entered = new Set(entries.map((entry) => entry.userId));
    const balances = await app.db
      .select({ id: users.id, balance: users.accountBalance })
      .from(users)
      .where(
        inArray(
          users.id,
          racers.map((racer) => racer.id),
        ),
      );
    for (const { id, balance } of balances) {
      expect(balance).toBe(entered.has(id) ? 10_000n : 30_000n);
    }
    const [fees] = await app.db
      .select({
        postings: sql<number>`count(DISTINCT ${ledgerTransactions.id})::int`,
        total: sql<string>`sum(${ledgerEntries.amount})::text`,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(
        and(
          like(ledgerTransactions.reference, 'entry:%'),
          eq(ledgerEntries.account, 'revenue:entry_fees'),
          inArray(
            ledgerTransactions.reference,
            entries.map((entry) => `entry:${entry.id}`),
          ),
        ),
      );
    expect(fees).toEqual({ postings: 20, total: String(20n * fee) });
    await expectLedgerOk(
      app.db,
      [...early, ...racers].map((p) => p.id),
    );
  });

  it('one player firing 20 plays for one game at once: one entry, one debit', async () => {
    const app = await buildTestApp(database());
    const game = await createGame(app.db, { entryFee: 15_000n, reward: 0n, maximumPlayers: 100 });
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const headers = await bearerFor(app, player);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/api/v1/game/play',
          headers,
          payload: { gameID: game.id, submittedAnswer: `attempt ${i}` },
        }),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(1);
    for (const response of responses.filter((r) => r.statusCode !== 201)) {
      expect(response.json()).toEqual({
        statusCode: 409,
        code: 'ALREADY_PLAYED',
        message: 'You have already played this game. Only one submission is allowed.',
      });
    }
    const entries = await app.db
      .select()
      .from(gameEntries)
      .where(eq(gameEntries.userId, player.id));
    expect(entries).toHaveLength(1);
    const [row] = await app.db.select().from(games).where(eq(games.id, game.id));
    expect(row?.playerCount).toBe(1);
    const debits = await app.db
      .select({ amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, player.id), lt(ledgerEntries.amount, 0n)));
    expect(debits).toEqual([{ amount: -15_000n }]);
    const [after] = await app.db.select().from(users).where(eq(users.id, player.id));
    expect(after?.accountBalance).toBe(85_000n);
    await expectLedgerOk(app.db, [player.id]);
  });

  it('one player playing 10 paid games at once never spends more than the wallet holds', async () => {
    const app = await buildTestApp(database());
    const plan = await createPlan(app.db, { gamesPerDay: null });
    const player: UserRow = await createPlayer(app.db, { kobo: 30_000n, planId: plan.id });
    const pool = await Promise.all(
      Array.from({ length: 10 }, () =>
        createGame(app.db, { entryFee: 10_000n, reward: 0n, maximumPlayers: 50 }),
      ),
    );
    const headers = await bearerFor(app, player);
    const responses = await Promise.all(
      pool.map((game) =>
        app.inject({
          method: 'POST',
          url: '/api/v1/game/play',
          headers,
          payload: { gameID: game.id, submittedAnswer: 'all in' },
        }),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(3);
    for (const response of responses.filter((r) => r.statusCode !== 201)) {
      expect(response.json()).toEqual({
        statusCode: 400,
        code: 'INSUFFICIENT_FUNDS',
        message: minimumBalanceMessage(10_000n),
      });
    }
    const [after] = await app.db.select().from(users).where(eq(users.id, player.id));
    expect(after?.accountBalance).toBe(0n);
    await expectLedgerOk(app.db, [player.id]);
  });
});
