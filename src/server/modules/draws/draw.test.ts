import { asc, eq, inArray, or, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { firstRoundAfter } from '../../../shared/beacon.ts';
import { verifyDrawProof } from '../../../shared/draw-check.ts';
import {
  commitmentOf,
  drawWinners,
  drawWinnersV2,
  webFairnessCrypto,
} from '../../../shared/fairness.ts';
import { gameDetailsPath } from '../../../shared/games.ts';
import type { DrawProofResponse } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import { entryOutcome, wonSql } from '../../db/outcome.ts';
import {
  gameEntries,
  gameResultNotices,
  games,
  gameWinners,
  jobs,
  ledgerEntries,
  ledgerTransactions,
  notifications,
  users,
} from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  actorFor,
  bearerFor,
  createGame,
  createPlayer,
  createPlayers,
  type GameRow,
  testClock,
  type UserRow,
} from '../../test/factories.ts';
import { failingAtWrite } from '../../test/failing-writes.ts';
import { expectLedgerOk } from '../../test/ledger.ts';
import { listEntries } from '../games/admin-service.ts';
import { sweepGames } from '../games/lifecycle.ts';
import { listPlayedGames, playGame } from '../games/service.ts';
import { leaderboard, myRank } from '../leaderboard/service.ts';
import { listNotifications, notify } from '../notifications/service.ts';
import { commitmentFor, createDrawSeed, nodeFairnessCrypto } from './commitment.ts';
import { queueDraw } from './queue.ts';
import { sealEntries } from './seal.ts';
import { cancelWithRefunds, drawGame } from './service.ts';

const database = testDatabasePerFile();
const testApp = testAppPerFile(database);

/** Draw and cancellation notices; tournament announcements may reach anyone at any time. */
const RESULT_TITLES = ['You won!', 'Results are in', 'Game cancelled'];

/**
 * A CLOSED game with `players` paid entries, and no draw job (the test runs the draw);
 * `beforePlays` may set the players up before they play.
 */
/** A live game `players` have played, with room for more. */
async function playedGame(
  db: Database,
  players: number,
  values: Partial<typeof games.$inferInsert> = {},
  beforePlays: (people: UserRow[]) => Promise<void> = async () => {},
): Promise<{ game: GameRow; players: UserRow[] }> {
  const game = await createGame(db, {
    entryFee: 10_000n,
    reward: 25_000n,
    maximumPlayers: players + 10,
    ...values,
  });
  const fee = game.entryFee;
  const people = await Promise.all(
    Array.from({ length: players }, () => createPlayer(db, { kobo: fee + 1_000n + 10_000n })),
  );
  await beforePlays(people);
  for (const person of people) {
    await playGame(
      db,
      await actorFor(db, person),
      { gameID: game.id, submittedAnswer: 'my answer' },
      new Date(),
    );
  }
  return { game, players: people };
}

async function closedGame(
  db: Database,
  players: number,
  values: Partial<typeof games.$inferInsert> = {},
  beforePlays: (people: UserRow[]) => Promise<void> = async () => {},
): Promise<{ game: GameRow; players: UserRow[] }> {
  const { game, players: people } = await playedGame(db, players, values, beforePlays);
  // As a closing play or sweep does: closed and sealed in one transaction.
  await db.transaction(async (tx) => {
    await tx
      .update(games)
      .set({ status: 'CLOSED', closedAt: new Date() })
      .where(eq(games.id, game.id));
    await sealEntries(tx, game.id);
  });
  return { game, players: people };
}

async function proof(app: FastifyInstance, gameId: string): Promise<DrawProofResponse> {
  const response = await app.inject({ url: `/api/v1/game/${gameId}/draw` });
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

/** The result notices each player reads in their notification list. */
async function resultNotices(db: Database, people: UserRow[]) {
  const told = [];
  for (const person of people) {
    const page = await listNotifications(db, person.id, 1, 100);
    for (const notice of page.notifications)
      if (RESULT_TITLES.includes(notice.title)) told.push({ userId: person.id, ...notice });
  }
  return told;
}

/** Everything a draw touches, to compare before and after. */
async function drawState(db: Database, game: GameRow, people: UserRow[]) {
  const ids = people.map((person) => person.id);
  const [row] = await db
    .select({
      status: games.status,
      drawnAt: games.drawnAt,
      entriesDigest: games.entriesDigest,
    })
    .from(games)
    .where(eq(games.id, game.id));
  const entries = await db
    .select({
      id: gameEntries.id,
      won: wonSql(gameEntries),
      prize: sql<string | null>`(SELECT w.prize::text FROM game_winners w
        WHERE w.game_id = ${gameEntries.gameId} AND w.entry_id = ${gameEntries.id})`,
      refunded: gameEntries.refunded,
    })
    .from(gameEntries)
    .where(eq(gameEntries.gameId, game.id))
    .orderBy(asc(gameEntries.id));
  return {
    game: row,
    // As every reader sees them: a loser's entry reads as lost once the game is COMPLETED.
    entries: entries.map(({ won, prize, ...entry }) => ({
      ...entry,
      isWinner: entryOutcome(won, row?.status ?? ''),
      prize: BigInt(prize ?? 0),
    })),
    users: await db
      .select({
        id: users.id,
        balance: users.accountBalance,
        points: users.points,
        level: users.level,
        played: users.totalGamesPlayed,
        won: users.totalGamesWon,
        winnings: users.totalWinningAmount,
      })
      .from(users)
      .where(inArray(users.id, ids))
      .orderBy(asc(users.id)),
    postings: await db
      .select({ id: ledgerTransactions.id })
      .from(ledgerTransactions)
      .where(
        or(
          eq(ledgerTransactions.reference, `prizes:${game.id}`),
          eq(ledgerTransactions.reference, `refunds:${game.id}`),
        ),
      ),
    notifications: (await resultNotices(db, people)).map(({ userId, title }) => ({
      userId,
      title,
    })),
  };
}

describe('fairness crypto on the server', () => {
  it("Node's hashes and Web Crypto give identical hashes, commitments and draws", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 100 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 2 ** 40 }), { maxLength: 60 }),
        async (data, seedBytes, entryIds) => {
          expect(new Uint8Array(await nodeFairnessCrypto.sha256(data))).toEqual(
            await webFairnessCrypto.sha256(data),
          );
          expect(new Uint8Array(await nodeFairnessCrypto.hmacSha256(seedBytes, data))).toEqual(
            await webFairnessCrypto.hmacSha256(seedBytes, data),
          );
          const seed = Buffer.from(seedBytes).toString('hex');
          expect(commitmentFor(seed)).toBe(await commitmentOf(webFairnessCrypto, seed));
          expect(await drawWinners(nodeFairnessCrypto, seed, entryIds)).toEqual(
            await drawWinners(webFairnessCrypto, seed, entryIds),
          );
        },
      ),
    );
    const fresh = createDrawSeed();
    expect(fresh.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh.commitment).toBe(await commitmentOf(webFairnessCrypto, fresh.seed));
    expect(createDrawSeed().seed).not.toBe(fresh.seed);
  });
});

describe('runDraw', () => {
  it('hides the seed until the draw, then settles everything and reveals a verifiable proof', async () => {
    const app = testApp();
    // Levels move at 100 points (level 2: the play's +10 gets there) and 10,000 (level 5: only
    // a win's +50 does).
    const { game, players } = await closedGame(app.db, 12, {}, async ([nearTwo, nearFive]) => {
      if (!nearTwo || !nearFive) throw new Error('players missing');
      await app.db.update(users).set({ points: 95 }).where(eq(users.id, nearTwo.id));
      await app.db.update(users).set({ points: 9_945, level: 4 }).where(eq(users.id, nearFive.id));
    });
    const [nearTwo, nearFive] = players;
    if (!nearTwo || !nearFive) throw new Error('players missing');

    const before = await proof(app, game.id);
    const [sealed] = await app.db
      .select({ merkleRoot: games.merkleRoot, closedAt: games.closedAt })
      .from(games)
      .where(eq(games.id, game.id));
    expect(before).toEqual({
      gameId: game.id,
      status: 'CLOSED',
      version: 2,
      commitment: game.commitment,
      seed: null,
      entriesDigest: null,
      closedAt: sealed?.closedAt?.toISOString(),
      // Published from the close on: the entries can no longer change unseen.
      merkleRoot: sealed?.merkleRoot,
      beacon: {
        chain: app.beacon.chain,
        round: firstRoundAfter(app.beacon.chain, sealed?.closedAt as Date),
        expectedAt: expect.any(String),
        signature: null,
        randomness: null,
      },
      waitingFor: null,
      cancelReason: null,
      entries: [],
      winners: [],
      winnerUsernames: [],
      log: [],
    });
    expect(sealed?.merkleRoot).toMatch(/^[0-9a-f]{64}$/);
    const early = await app.inject({ url: `/api/v1/game/${game.id}/draw` });
    expect(early.body).not.toContain(game.seed);

    const drawnAt = new Date('2030-05-05T10:00:00Z');
    expect(await drawGame(app.db, app.beacon, game.id, drawnAt)).toBe('completed');

    const after = await proof(app, game.id);
    expect(after.status).toBe('COMPLETED');
    expect(after.seed).toBe(game.seed);
    expect(after.commitment).toBe(game.commitment);
    expect(after.entries).toHaveLength(12);
    expect(after.winners).toHaveLength(2);
    expect(await verifyDrawProof(webFairnessCrypto, after)).toEqual({ ok: true });
    const expected = await drawWinners(
      webFairnessCrypto,
      game.seed,
      after.entries.map((entry) => entry.entryId),
    );
    // The winners come from the seed, the sealed root and the beacon round: not the seed alone.
    const fromBeacon = await drawWinnersV2(
      webFairnessCrypto,
      game.seed,
      after.entries.map((entry) => entry.entryId),
      sealed?.merkleRoot as string,
      after.beacon?.randomness as string,
    );
    expect([...after.winners].sort()).toEqual([...fromBeacon].sort());
    expect(after.beacon?.round).toBe(firstRoundAfter(app.beacon.chain, sealed?.closedAt as Date));
    expect(after.log.map((record) => record.kind)).toEqual([
      'commitment',
      'seal',
      'beacon',
      'result',
    ]);
    expect(after.entriesDigest).toBe(expected.entriesDigest);
    const handles = new Map(players.map((player) => [player.id, player.handle]));
    for (const name of after.winnerUsernames) expect(name).toMatch(/^plucker_p_/);

    const state = await drawState(app.db, game, players);
    expect(state.game).toEqual({
      status: 'COMPLETED',
      drawnAt,
      entriesDigest: expected.entriesDigest,
    });
    const winnerEntries = new Set(after.winners);
    const rows = await app.db
      .select({ id: gameEntries.id, userId: gameEntries.userId })
      .from(gameEntries)
      .where(eq(gameEntries.gameId, game.id));
    const winnerUsers = new Set(
      rows.filter((row) => winnerEntries.has(row.id)).map((r) => r.userId),
    );
    expect(after.winnerUsernames.sort()).toEqual(
      [...winnerUsers].map((id) => `plucker_${handles.get(id)}`).sort(),
    );
    for (const entry of state.entries) {
      expect(entry.isWinner).toBe(winnerEntries.has(entry.id));
      expect(entry.prize).toBe(winnerEntries.has(entry.id) ? 25_000n : 0n);
    }
    for (const user of state.users) {
      const won = winnerUsers.has(user.id);
      const startPoints = user.id === nearTwo.id ? 95 : user.id === nearFive.id ? 9_945 : 0;
      expect(user).toMatchObject({
        balance: 11_000n + (won ? 25_000n : 0n),
        played: 1,
        won: won ? 1 : 0,
        winnings: won ? 25_000n : 0n,
        points: startPoints + (won ? 60 : 10),
      });
      if (user.id === nearTwo.id) expect(user.level).toBe(2);
      if (user.id === nearFive.id) expect(user.level).toBe(won ? 5 : 4);
      if (startPoints === 0) expect(user.level).toBe(1);
    }
    // One posting: the prize expense pays each winner's wallet.
    const lines = await app.db
      .select({
        account: ledgerEntries.account,
        userId: ledgerEntries.userId,
        amount: ledgerEntries.amount,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
      .where(eq(ledgerTransactions.reference, `prizes:${game.id}`));
    expect(lines).toHaveLength(3);
    expect(lines.filter((line) => line.account === 'expense:prizes')).toEqual([
      { account: 'expense:prizes', userId: null, amount: -50_000n },
    ]);
    expect(new Set(lines.filter((l) => l.account === 'wallet').map((l) => l.userId))).toEqual(
      winnerUsers,
    );
    // Every player is told the result, once, unread.
    const told = await resultNotices(app.db, players);
    expect(told).toHaveLength(12);
    expect(new Set(told.map((note) => note.userId)).size).toBe(12);
    expect(told.every((note) => !note.hasRead && note.link === gameDetailsPath(game.id))).toBe(
      true,
    );
    for (const note of told) {
      if (winnerUsers.has(note.userId)) {
        expect(note.title).toBe('You won!');
        expect(note.message).toBe(
          `Congratulations! You are a winner of "${game.title}". ₦250 has been added to your wallet.`,
        );
      } else {
        expect(note.title).toBe('Results are in');
        expect(note.message).toBe(
          `The draw for "${game.title}" is done. You did not win this time; keep plucking!`,
        );
      }
      expect(note.createdAt).toEqual(drawnAt?.toISOString());
    }
    await expectLedgerOk(
      app.db,
      players.map((p) => p.id),
    );

    // Drawn once: a second run changes nothing.
    expect(await drawGame(app.db, app.beacon, game.id, new Date())).toBe('skipped');
    expect(await drawState(app.db, game, players)).toEqual(state);
  });

  it('cancels a game of fewer than 5 players, refunds every fee and keeps the seed secret', async () => {
    const app = testApp();
    const { game, players } = await closedGame(app.db, 4, { entryFee: 15_000n });
    expect(await drawGame(app.db, app.beacon, game.id, new Date())).toBe('cancelled');
    const state = await drawState(app.db, game, players);
    expect(state.game?.status).toBe('CANCELLED');
    expect(state.entries.every((entry) => entry.refunded && entry.isWinner === null)).toBe(true);
    expect(state.users.map((user) => user.balance)).toEqual(Array(4).fill(26_000n));
    expect(state.users.every((user) => user.played === 0 && user.points === 0)).toBe(true);
    expect(state.postings).toHaveLength(1);
    const told = (await resultNotices(app.db, players)).map(({ title, message }) => ({
      title,
      message,
    }));
    expect(told).toEqual(
      Array(4).fill({
        title: 'Game cancelled',
        message: `"${game.title}" ended with fewer than 5 players, so it was cancelled. Your entry fee of ₦150 has been refunded to your wallet.`,
      }),
    );
    const shown = await proof(app, game.id);
    expect(shown).toMatchObject({ status: 'CANCELLED', seed: null, entries: [], winners: [] });
    expect(await drawGame(app.db, app.beacon, game.id, new Date())).toBe('skipped');
    await expectLedgerOk(
      app.db,
      players.map((p) => p.id),
    );
  });

  it('a draw that fails at any step leaves nothing half-done; the re-run credits each winner once', async () => {
    const app = testApp();
    const { game, players } = await closedGame(app.db, 11);
    const before = await drawState(app.db, game, players);

    let failures = 0;
    for (let step = 1; ; step += 1) {
      const faulty = failingAtWrite(app.db, step);
      let outcome: string;
      try {
        outcome = await drawGame(faulty.db, app.beacon, game.id, new Date());
      } catch (error) {
        expect(faulty.failed(), String(error)).toBe(true);
        expect(await drawState(app.db, game, players)).toEqual(before);
        failures += 1;
        continue;
      }
      // A write failing after the draw committed can only be chaining the fairness log, which
      // the draw does not wait for: the next worker tick chains it.
      expect(outcome).toBe('completed');
      break;
    }
    await app.jobs.runDue();
    // Marking entries, the prize posting, wallets and stats, notifications, the game itself.
    expect(failures).toBeGreaterThanOrEqual(6);

    const after = await drawState(app.db, game, players);
    const winners = after.users.filter((user) => user.won === 1);
    expect(winners).toHaveLength(2);
    for (const user of after.users) expect(user.balance).toBe(user.won ? 36_000n : 11_000n);
    expect(after.postings).toHaveLength(1);
    expect(after.notifications).toHaveLength(11);
    expect(await verifyDrawProof(webFairnessCrypto, await proof(app, game.id))).toEqual({
      ok: true,
    });
    expect(await drawGame(app.db, app.beacon, game.id, new Date())).toBe('skipped');
    expect(await drawState(app.db, game, players)).toEqual(after);
    await expectLedgerOk(
      app.db,
      players.map((p) => p.id),
    );
  });

  it('two draws of the same game at once: one completes, the other does nothing', async () => {
    const app = testApp();
    const { game, players } = await closedGame(app.db, 10);
    const outcomes = await Promise.all([
      drawGame(app.db, app.beacon, game.id, new Date()),
      drawGame(app.db, app.beacon, game.id, new Date()),
      drawGame(app.db, app.beacon, game.id, new Date()),
    ]);
    expect(outcomes.sort()).toEqual(['completed', 'skipped', 'skipped']);
    const state = await drawState(app.db, game, players);
    expect(state.users.filter((user) => user.won === 1)).toHaveLength(2);
    expect(state.users.reduce((sum, user) => sum + user.balance, 0n)).toBe(
      10n * 11_000n + 2n * 25_000n,
    );
    expect(state.postings).toHaveLength(1);
    expect(state.notifications).toHaveLength(10);
    await expectLedgerOk(
      app.db,
      players.map((p) => p.id),
    );
  });

  it('the draw job runs once even when queued twice and run again after finishing', async () => {
    const app = testApp();
    const { game, players } = await closedGame(app.db, 5);
    await queueDraw(app.db, game.id);
    await queueDraw(app.db, game.id);
    const queued = await app.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `draw:${game.id}`));
    expect(queued).toHaveLength(1);

    await app.jobs.runDue();
    const drawn = await drawState(app.db, game, players);
    expect(drawn.game?.status).toBe('COMPLETED');
    expect(drawn.users.filter((user) => user.won === 1)).toHaveLength(1);

    // A worker that died after the draw but before marking the job done: it runs again.
    await app.db
      .update(jobs)
      .set({ doneAt: null, lockedUntil: null })
      .where(eq(jobs.key, `draw:${game.id}`));
    await app.jobs.runDue();
    expect(await drawState(app.db, game, players)).toEqual(drawn);
    const [job] = await app.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `draw:${game.id}`));
    expect(job?.doneAt).not.toBeNull();
    expect(job?.lastError).toBeNull();
  });

  it('settles a larger game with set-based statements', async () => {
    const app = testApp();
    const game = await createGame(app.db, { reward: 1_000n, maximumPlayers: 1_000 });
    const people = await createPlayers(app.db, 503);
    await app.db.insert(gameEntries).values(
      people.map((person) => ({
        gameId: game.id,
        userId: person.id,
        answer: 'crowd',
        amountPaid: 0n,
      })),
    );
    await app.db
      .update(games)
      .set({ status: 'CLOSED', playerCount: 503, closedAt: new Date() })
      .where(eq(games.id, game.id));
    const started = performance.now();
    await sealEntries(app.db, game.id);
    expect(await drawGame(app.db, app.beacon, game.id, new Date())).toBe('completed');
    expect(performance.now() - started).toBeLessThan(5_000);
    const shown = await proof(app, game.id);
    expect(shown.winners).toHaveLength(100);
    expect(await verifyDrawProof(webFairnessCrypto, shown)).toEqual({ ok: true });
    await expectLedgerOk(
      app.db,
      people.map((p) => p.id),
    );
  });
});

describe('sweepGames', () => {
  it('opens upcoming games at startsAt, closes ongoing ones at endsAt and queues their draws', async () => {
    const now = new Date();
    const app = await buildTestApp(database(), {}, { clock: testClock(now) });
    const second = 1_000;
    const starting = await createGame(app.db, {
      status: 'UPCOMING',
      startsAt: new Date(now.getTime() - second),
    });
    const later = await createGame(app.db, {
      status: 'UPCOMING',
      startsAt: new Date('2999-01-01T00:00:00Z'),
    });
    const { game: ending, players } = await playedGame(app.db, 5, {
      endsAt: new Date(now.getTime() - second),
    });
    const running = await createGame(app.db, { endsAt: new Date('2999-01-01T00:00:00Z') });
    // Starts and ends before the sweep: opened and closed in the same tick.
    const brief = await createGame(app.db, {
      status: 'UPCOMING',
      startsAt: new Date(now.getTime() - 2 * second),
      endsAt: new Date(now.getTime() - second),
    });

    await sweepGames(app.db, now);
    const statuses = Object.fromEntries(
      (
        await app.db
          .select({ id: games.id, status: games.status, closedAt: games.closedAt })
          .from(games)
          .where(inArray(games.id, [starting.id, later.id, ending.id, running.id, brief.id]))
      ).map((row) => [row.id, row]),
    );
    expect(statuses[starting.id]?.status).toBe('ONGOING');
    expect(statuses[later.id]?.status).toBe('UPCOMING');
    expect(statuses[running.id]?.status).toBe('ONGOING');
    // Another worker may already have drawn these two (their draw jobs are due).
    expect(['CLOSED', 'COMPLETED']).toContain(statuses[ending.id]?.status);
    expect(['CLOSED', 'CANCELLED']).toContain(statuses[brief.id]?.status);
    const queued = await app.db
      .select({ key: jobs.key })
      .from(jobs)
      .where(
        inArray(
          jobs.key,
          [ending.id, brief.id, running.id].map((id) => `draw:${id}`),
        ),
      );
    expect(queued.map((job) => job.key).sort()).toEqual(
      [`draw:${ending.id}`, `draw:${brief.id}`].sort(),
    );

    await app.jobs.runDue();
    expect((await drawState(app.db, ending, players)).game?.status).toBe('COMPLETED');
    const [gone] = await app.db.select().from(games).where(eq(games.id, brief.id));
    expect(gone?.status).toBe('CANCELLED');
    await app.db
      .update(games)
      .set({ status: 'CANCELLED' })
      .where(inArray(games.id, [starting.id, later.id, running.id]));
  });

  it('a sweep that fails midway never leaves a closed game without its draw', async () => {
    const now = new Date();
    const app = testApp();
    const { game, players } = await playedGame(app.db, 6, {
      endsAt: new Date(now.getTime() - 1_000),
    });
    const consistent = async () => {
      const [row] = await app.db.select().from(games).where(eq(games.id, game.id));
      const queued = await app.db
        .select()
        .from(jobs)
        .where(eq(jobs.key, `draw:${game.id}`));
      // Either untouched, or closed (or already drawn by a worker) with its draw queued.
      if (row?.status === 'ONGOING') expect(queued).toHaveLength(0);
      else expect(queued).toHaveLength(1);
      return row?.status;
    };

    let failures = 0;
    for (let step = 1; step < 50; step += 1) {
      const faulty = failingAtWrite(app.db, step);
      try {
        await sweepGames(faulty.db, now);
      } catch (error) {
        expect(faulty.failed(), String(error)).toBe(true);
        failures += 1;
        await consistent();
        continue;
      }
      break;
    }
    expect(failures).toBeGreaterThanOrEqual(2);
    expect(await consistent()).not.toBe('ONGOING');
    await app.jobs.runDue();
    expect((await drawState(app.db, game, players)).game?.status).toBe('COMPLETED');
  });
});

describe('results after a draw', () => {
  const lostMessage = (title: string) =>
    `The draw for "${title}" is done. You did not win this time; keep plucking!`;

  it("a loser's entry reads as lost; each player reads one result notice, marks it read, counts right", async () => {
    const app = testApp();
    const { game, players } = await closedGame(app.db, 5);
    for (const player of players) await notify(app.db, player.id, 'Earlier', 'before the draw');
    expect(await drawGame(app.db, app.beacon, game.id, new Date())).toBe('completed');

    // Only the winner was written, a row of its own; every other entry reads as lost.
    const written = await app.db
      .select({ userId: gameWinners.userId, prize: gameWinners.prize })
      .from(gameWinners)
      .where(eq(gameWinners.gameId, game.id));
    expect(written).toEqual([{ userId: expect.any(String), prize: 25_000n }]);
    const winnerId = written[0]?.userId;
    const losers = players.filter((player) => player.id !== winnerId);
    const [first, second] = losers;
    if (!first || !second) throw new Error('four losers expected');
    for (const player of players) {
      const [played] = await listPlayedGames(app.db, player.id);
      expect(played?.isWinner).toBe(player.id === winnerId);
    }

    await notify(app.db, first.id, 'Later', 'after the draw');
    const headers = await bearerFor(app, first);
    const list = async () =>
      (await app.inject({ url: '/api/v1/notification', headers })).json().data;
    const before = await list();
    // In the order they came: the result between the player's own notices.
    expect(before.notifications.map((n: { title: string }) => n.title)).toEqual([
      'Later',
      'Results are in',
      'Earlier',
    ]);
    expect(before.notifications[1]).toEqual({
      id: expect.any(String),
      title: 'Results are in',
      message: lostMessage(game.title),
      link: gameDetailsPath(game.id),
      hasRead: false,
      createdAt: expect.any(String),
    });
    expect(before.unreadCount).toBe(3);
    expect(before.pagination).toMatchObject({ totalResults: 3, totalPages: 1 });

    const markAll = () =>
      app.inject({ method: 'POST', url: '/api/v1/notification/mark-all-as-read', headers });
    expect((await markAll()).json()).toEqual({ message: 'All notifications marked as read' });
    const after = await list();
    expect(after.unreadCount).toBe(0);
    expect(after.notifications.map((n: { id: string }) => n.id)).toEqual(
      before.notifications.map((n: { id: string }) => n.id),
    );
    expect(after.notifications.every((n: { hasRead: boolean }) => n.hasRead)).toBe(true);
    expect((await markAll()).json()).toEqual({ message: 'No unread notifications' });

    // Another loser's notice is theirs to read: still unread, the same text.
    const theirs = (await listNotifications(app.db, second.id, 1)).notifications;
    expect(theirs).toEqual([
      expect.objectContaining({
        title: 'Results are in',
        message: lostMessage(game.title),
        hasRead: false,
      }),
      expect.objectContaining({ title: 'Earlier', hasRead: false }),
    ]);
    const winner = players.find((player) => player.id === winnerId);
    if (!winner) throw new Error('a winner expected');
    expect((await listNotifications(app.db, winner.id, 1)).notifications).toEqual([
      expect.objectContaining({
        title: 'You won!',
        message: `Congratulations! You are a winner of "${game.title}". ₦250 has been added to your wallet.`,
      }),
      expect.objectContaining({ title: 'Earlier' }),
    ]);

    // A second run changes nothing, read state included.
    expect(await drawGame(app.db, app.beacon, game.id, new Date())).toBe('skipped');
    expect(await list()).toEqual(after);
  });

  it('a winner row is an entry of its own game with its player and time, checked by PostgreSQL', async () => {
    const db = database().db;
    const first = await closedGame(db, 5);
    const second = await closedGame(db, 5);
    const entriesOf = (gameId: string) =>
      db.select().from(gameEntries).where(eq(gameEntries.gameId, gameId)).orderBy(gameEntries.id);
    const [mine, neighbour] = await entriesOf(first.game.id);
    const [theirs] = await entriesOf(second.game.id);
    if (!mine || !neighbour || !theirs) throw new Error('entries expected');
    const winnerOf = (entry: typeof mine) => ({
      gameId: entry.gameId,
      entryId: entry.id,
      userId: entry.userId,
      prize: 100n,
      createdAt: entry.createdAt,
    });
    const refused = /is not an entry of that game as it is/;
    const attempts = [
      // An entry of another game, named as this game's winner.
      { ...winnerOf(theirs), gameId: first.game.id },
      // This game's entry with another player, or another time, than the entry's.
      { ...winnerOf(mine), userId: neighbour.userId },
      { ...winnerOf(mine), createdAt: new Date(mine.createdAt.getTime() + 1) },
      // No entry at all.
      { ...winnerOf(mine), entryId: theirs.id + 1_000_000 },
    ];
    for (const attempt of attempts)
      await expect(db.insert(gameWinners).values([winnerOf(neighbour), attempt])).rejects.toThrow(
        expect.objectContaining({
          cause: expect.objectContaining({ message: expect.stringMatching(refused) }),
        }),
      );
    expect(
      await db.select().from(gameWinners).where(eq(gameWinners.gameId, first.game.id)),
    ).toEqual([]);
    // A row moved onto another game's entry is refused the same way.
    await db.insert(gameWinners).values(winnerOf(mine));
    await expect(
      db.update(gameWinners).set({ entryId: theirs.id }).where(eq(gameWinners.entryId, mine.id)),
    ).rejects.toThrow(
      expect.objectContaining({
        cause: expect.objectContaining({ message: expect.stringMatching(refused) }),
      }),
    );
    // A refunded entry (its game cancelled) never won.
    await db.update(gameEntries).set({ refunded: true }).where(eq(gameEntries.id, neighbour.id));
    await expect(db.insert(gameWinners).values(winnerOf(neighbour))).rejects.toThrow(
      expect.objectContaining({
        cause: expect.objectContaining({ message: expect.stringMatching(refused) }),
      }),
    );
    expect(
      (await db.select().from(gameWinners).where(eq(gameWinners.gameId, first.game.id))).map(
        (row) => row.entryId,
      ),
    ).toEqual([mine.id]);

    // Left as a real game would be (the files of a worker share this database): no winner of an
    // undrawn game, no refund without its posting, both games cancelled with their refunds.
    await db.delete(gameWinners).where(eq(gameWinners.gameId, first.game.id));
    await db.update(gameEntries).set({ refunded: false }).where(eq(gameEntries.id, neighbour.id));
    for (const { game } of [first, second])
      await db.transaction((tx) =>
        cancelWithRefunds(tx, game, new Date(), {
          rule: 'operator',
          why: 'was cancelled by a test',
          reason: 'test',
        }),
      );
    await expectLedgerOk(
      db,
      [...first.players, ...second.players].map((player) => player.id),
    );
  });

  it('a game drawn before migration 0020 (a notice per player) reads the same', async () => {
    const app = testApp();
    const { game, players } = await closedGame(app.db, 6);
    expect(await drawGame(app.db, app.beacon, game.id, new Date())).toBe('completed');
    const anyLoser = players[0];
    if (!anyLoser) throw new Error('players expected');
    const readings = async () => ({
      played: await Promise.all(players.map((player) => listPlayedGames(app.db, player.id))),
      entries: await listEntries(app.db, game.id),
      notices: await Promise.all(
        players.map(async (player) =>
          (await listNotifications(app.db, player.id, 1)).notifications.map(
            ({ id: _id, ...notice }) => notice,
          ),
        ),
      ),
      counts: await Promise.all(
        players.map(async (player) => {
          const { pagination, unreadCount } = await listNotifications(app.db, player.id, 1);
          return { total: pagination.totalResults, unreadCount };
        }),
      ),
      board: await leaderboard(app.db, { pageSize: 100 }),
      rank: await myRank(app.db, anyLoser.id, {}),
    });
    const now = await readings();

    // What a draw wrote before: a notification row per player (the losers' false marks of
    // those draws were dropped with the column by migration 0033).
    await app.db.transaction(async (tx) => {
      const [notice] = await tx
        .delete(gameResultNotices)
        .where(eq(gameResultNotices.gameId, game.id))
        .returning();
      if (!notice) throw new Error('a result notice expected');
      const entries = await tx
        .select({ userId: gameEntries.userId, won: wonSql(gameEntries) })
        .from(gameEntries)
        .where(eq(gameEntries.gameId, game.id));
      await tx.insert(notifications).values(
        entries.map((entry) => ({
          userId: entry.userId,
          title: entry.won ? notice.winnerTitle : notice.loserTitle,
          message: entry.won ? notice.winnerMessage : notice.loserMessage,
          link: notice.link,
          createdAt: notice.createdAt,
        })),
      );
    });
    expect(await readings()).toEqual(now);
  });
});
