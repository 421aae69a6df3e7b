import { and, eq, inArray, like, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { formatNaira, koboToNaira } from '../../../shared/money.ts';
import {
  gameEntries,
  games,
  jobs,
  ledgerEntries,
  ledgerTransactions,
  users,
} from '../../db/schema.ts';
import { maxKobo } from '../../lib/kobo.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  actorFor,
  bearerFor,
  createGame,
  createPlan,
  createPlayer,
  type GameRow,
  play,
  testClock,
  type UserRow,
} from '../../test/factories.ts';
import { failingAtWrite } from '../../test/failing-writes.ts';
import { expectLedgerOk } from '../../test/ledger.ts';
import { readSettingsRow } from '../settings/service.ts';
import { dailyLimitMessage, minimumBalanceMessage, playGame } from './service.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

const MESSAGES = {
  empty: 'Type your answer before you submit',
  words: 'Your answer must be 20 words or fewer',
  characters: 'Your answer must be 280 characters or fewer',
  notStarted: 'This game has not started yet. Check back when it is live.',
  closed: 'This game is closed to new answers',
  full: 'This game is full. Try another one.',
  again: 'You have already played this game. Only one submission is allowed.',
  tournament: 'Tournaments are for VIP members. Upgrade your plan to play.',
  notFound: 'Game not found',
};

/** Live games left behind would crowd other tests' lists on a shared database. */
function endAfterTest(app: FastifyInstance, rows: GameRow[]) {
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
          eq(games.entryFee, 0n),
          inArray(games.status, ['UPCOMING', 'ONGOING']),
        ),
      );
  });
}

async function entriesOf(app: FastifyInstance, userId: string) {
  return app.db.select().from(gameEntries).where(eq(gameEntries.userId, userId));
}

async function balanceOf(app: FastifyInstance, userId: string): Promise<bigint> {
  const [row] = await app.db
    .select({ balance: users.accountBalance })
    .from(users)
    .where(eq(users.id, userId));
  return row?.balance ?? -1n;
}

async function unlimitedPlayer(app: FastifyInstance, kobo = 0n): Promise<UserRow> {
  const plan = await createPlan(app.db, { gamesPerDay: null });
  return createPlayer(app.db, { kobo, planId: plan.id });
}

describe('POST /game/play: the answer', () => {
  it('takes 1 to 20 words and at most 280 characters, trimmed, with a message for each refusal', async () => {
    const app = fileApp();
    const player = await unlimitedPlayer(app);
    const fresh = async () => {
      const game = await createGame(app.db);
      endAfterTest(app, [game]);
      return game;
    };
    const words = (n: number, word = 'plucky') => Array.from({ length: n }, () => word).join(' ');

    const refusals: Array<[string, string]> = [
      ['', MESSAGES.empty],
      ['  \n\t ', MESSAGES.empty],
      [words(21), MESSAGES.words],
      [`${words(20)} x`, MESSAGES.words],
      ['a'.repeat(281), MESSAGES.characters],
      // 20 words, 299 characters
      [words(20, 'fourteen-chars'), MESSAGES.characters],
    ];
    const game = await fresh();
    for (const [answer, message] of refusals) {
      const response = await play(app, player, game.id, answer);
      expect(response.json(), JSON.stringify(answer)).toEqual({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message,
      });
    }
    expect(await entriesOf(app, player.id)).toHaveLength(0);

    // Exactly at the limits: 20 words; 280 characters (19 spaces + 19 × 13 + 14).
    const twenty = await play(app, player, game.id, `  ${words(20)}  `);
    expect(twenty.statusCode, twenty.body).toBe(201);
    expect(twenty.json().data.submittedAnswer).toBe(words(20));
    const exactly280 = `${Array.from({ length: 19 }, () => 'thirteen-char').join(' ')} fourteen-chars`;
    expect(exactly280).toHaveLength(280);
    expect((await play(app, player, (await fresh()).id, exactly280)).statusCode).toBe(201);
    // Runs of whitespace count once: 20 words and 280 characters once collapsed.
    const spaced = exactly280.replaceAll(' ', ' \n  ');
    const collapsed = await play(app, player, (await fresh()).id, spaced);
    expect(collapsed.statusCode).toBe(201);
    expect(collapsed.json().data.submittedAnswer).toBe(exactly280);
    expect((await play(app, player, (await fresh()).id, 'Yes')).statusCode).toBe(201);

    const noGame = await app.inject({
      method: 'POST',
      url: '/api/v1/game/play',
      headers: await bearerFor(app, player),
      payload: { submittedAnswer: 'hello' },
    });
    expect(noGame.json()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Choose a game to play',
    });
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/v1/game/play',
      payload: { gameID: game.id, submittedAnswer: 'hello' },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('allows one answer per player per game', async () => {
    const app = fileApp();
    const player = await unlimitedPlayer(app, 50_000n);
    const game = await createGame(app.db, { entryFee: 10_000n });
    expect((await play(app, player, game.id, 'first')).statusCode).toBe(201);
    const second = await play(app, player, game.id, 'second thoughts');
    expect(second.json()).toEqual({
      statusCode: 409,
      code: 'ALREADY_PLAYED',
      message: MESSAGES.again,
    });
    const entries = await entriesOf(app, player.id);
    expect(entries.map((entry) => entry.answer)).toEqual(['first']);
    expect(await balanceOf(app, player.id)).toBe(40_000n);
  });
  it('counts words as a reader sees them: blank fillers split words, invisible characters are no answer, nothing is charged', async () => {
    const app = fileApp();
    const player = await unlimitedPlayer(app, 50_000n);
    const game = await createGame(app.db, { entryFee: 10_000n });
    const joinedBy = (separator: string) =>
      Array.from({ length: 25 }, (_, i) => `word${i}`).join(separator);
    const refusals: Array<[string, string]> = [
      [joinedBy('\u2800'), MESSAGES.words],
      [joinedBy('\u3164'), MESSAGES.words],
      [joinedBy('\uFFA0'), MESSAGES.words],
      [joinedBy('\u115F'), MESSAGES.words],
      [joinedBy('\u3000'), MESSAGES.words],
      ['\u200B\u200C\u200D\u2060\uFEFF', MESSAGES.empty],
      ['\u00AD\u202E\u2066\uFE0F\u{E0041}\u{E007F}', MESSAGES.empty],
      ['\u2800\u3164\uFFA0\u115F\u1160\u00A0\u202F', MESSAGES.empty],
      // Hidden characters do not count towards the 280, but cannot make a sent answer unbounded.
      [`yes${'\u200B'.repeat(1200)}`, MESSAGES.characters],
    ];
    for (const [answer, message] of refusals) {
      const response = await play(app, player, game.id, answer);
      expect(response.json(), JSON.stringify(answer)).toEqual({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message,
      });
    }
    expect(await entriesOf(app, player.id)).toHaveLength(0);
    expect(await balanceOf(app, player.id)).toBe(50_000n);

    // What is stored (and shown back) is the answer as it reads: hidden characters are gone.
    const hidden = await play(
      app,
      player,
      game.id,
      '\u202Ejol\u200Blof\u2800rice\u{E0068}\u{E0069}',
    );
    expect(hidden.statusCode, hidden.body).toBe(201);
    expect(hidden.json().data.submittedAnswer).toBe('jollof rice');
    expect((await entriesOf(app, player.id)).map((entry) => entry.answer)).toEqual(['jollof rice']);
    expect(await balanceOf(app, player.id)).toBe(40_000n);
    await expectLedgerOk(app.db, [player.id]);
  });
});

describe('POST /game/play: the game', () => {
  it('refuses upcoming, closed, completed, cancelled, full and unknown games', async () => {
    const app = fileApp();
    const player = await unlimitedPlayer(app, 100_000n);
    const upcoming = await createGame(app.db, {
      status: 'UPCOMING',
      startsAt: new Date('2999-01-01T00:00:00Z'),
    });
    const closed = await createGame(app.db, { status: 'CLOSED', playerCount: 3 });
    const completed = await createGame(app.db, { status: 'COMPLETED', playerCount: 10 });
    const cancelled = await createGame(app.db, { status: 'CANCELLED' });
    // Ongoing but with no place left (as an operator could leave it).
    const crowded = await createGame(app.db, { maximumPlayers: 5, playerCount: 5 });
    endAfterTest(app, [upcoming, crowded]);

    const expectations: Array<[string, number, string, string]> = [
      [upcoming.id, 400, 'BAD_REQUEST', MESSAGES.notStarted],
      [closed.id, 400, 'BAD_REQUEST', MESSAGES.closed],
      [completed.id, 400, 'BAD_REQUEST', MESSAGES.closed],
      [cancelled.id, 400, 'BAD_REQUEST', MESSAGES.closed],
      [crowded.id, 409, 'GAME_FULL', MESSAGES.full],
      ['00000000-0000-4000-8000-000000000000', 404, 'NOT_FOUND', MESSAGES.notFound],
      ['not-a-game', 404, 'NOT_FOUND', MESSAGES.notFound],
    ];
    for (const [gameID, statusCode, code, message] of expectations) {
      expect((await play(app, player, gameID)).json(), gameID).toEqual({
        statusCode,
        code,
        message,
      });
    }
    expect(await entriesOf(app, player.id)).toHaveLength(0);
    expect(await balanceOf(app, player.id)).toBe(100_000n);
  });

  it('taking the last place closes the game and queues its draw; later players hear it is full', async () => {
    const now = new Date();
    const app = await buildTestApp(database(), {}, { clock: testClock(now) });
    const game = await createGame(app.db, { maximumPlayers: 6, playerCount: 4 });
    const [first, last, late] = await Promise.all([1, 2, 3].map(() => unlimitedPlayer(app)));
    if (!first || !last || !late) throw new Error('players missing');

    const taken = await play(app, first, game.id);
    expect(taken.json().data.playerCount).toBe(5);
    expect(
      await app.db
        .select()
        .from(jobs)
        .where(eq(jobs.key, `draw:${game.id}`)),
    ).toHaveLength(0);
    const closing = await play(app, last, game.id);
    expect(closing.statusCode).toBe(201);
    expect(closing.json()).toMatchObject({
      message: 'Your answer has been submitted!',
      data: { gameID: game.id, playerCount: 6, amountPaid: 0, amountToWin: 500 },
    });
    const [row] = await app.db.select().from(games).where(eq(games.id, game.id));
    expect(row).toMatchObject({ status: 'CLOSED', playerCount: 6, closedAt: now });
    const [job] = await app.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `draw:${game.id}`));
    expect(job).toMatchObject({ kind: 'draw', payload: { gameId: game.id }, runAt: now });

    expect((await play(app, late, game.id)).json()).toEqual({
      statusCode: 409,
      code: 'GAME_FULL',
      message: MESSAGES.full,
    });
  });

  it('needs a plan with tournament access for a tournament', async () => {
    const app = fileApp();
    const tournament = await createGame(app.db, { isTournament: true });
    endAfterTest(app, [tournament]);
    const noPlan = await createPlayer(app.db);
    const basic = await createPlan(app.db, { tournamentAccess: false, gamesPerDay: null });
    const vip = await createPlan(app.db, { tournamentAccess: true, gamesPerDay: null });
    const basicPlayer = await createPlayer(app.db, { planId: basic.id });
    const vipPlayer = await createPlayer(app.db, { planId: vip.id });

    for (const player of [noPlan, basicPlayer]) {
      expect((await play(app, player, tournament.id)).json()).toEqual({
        statusCode: 403,
        code: 'VIP_ONLY',
        message: MESSAGES.tournament,
      });
    }
    expect((await play(app, vipPlayer, tournament.id)).statusCode).toBe(201);
  });
});

describe('POST /game/play: money', () => {
  it('needs a balance of max(entry fee, minimum payment amount) and debits only the fee', async () => {
    const app = fileApp();
    const settings = await readSettingsRow(app.db);
    const minimum = settings.minimumPaymentAmount;
    const cheap = await createGame(app.db, { entryFee: minimum / 2n });
    const dear = await createGame(app.db, { entryFee: minimum * 3n });
    const free = await createGame(app.db, { entryFee: 0n });
    endAfterTest(app, [free]);
    const naira = (kobo: bigint) => formatNaira(koboToNaira(kobo));
    expect(minimumBalanceMessage(minimum)).toBe(
      `You need at least ${naira(minimum)} in your wallet to play this game. Top up to continue.`,
    );

    const mine: string[] = [];
    const cases: Array<[GameRow, bigint, bigint]> = [
      // game, balance just short, balance just enough
      [cheap, minimum - 1n, minimum],
      [dear, minimum * 3n - 1n, minimum * 3n],
    ];
    for (const [game, short, enough] of cases) {
      const needed = maxKobo(game.entryFee, minimum);
      const poor = await unlimitedPlayer(app, short);
      mine.push(poor.id);
      expect((await play(app, poor, game.id)).json()).toEqual({
        statusCode: 400,
        code: 'INSUFFICIENT_FUNDS',
        message: minimumBalanceMessage(needed),
      });
      expect(await balanceOf(app, poor.id)).toBe(short);
      expect(await entriesOf(app, poor.id)).toHaveLength(0);

      const able = await unlimitedPlayer(app, enough);
      mine.push(able.id);
      const response = await play(app, able, game.id);
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().data.amountPaid).toBe(koboToNaira(game.entryFee));
      expect(await balanceOf(app, able.id)).toBe(enough - game.entryFee);
      const [entry] = await entriesOf(app, able.id);
      expect(entry?.amountPaid).toBe(game.entryFee);
      const lines = await app.db
        .select({ account: ledgerEntries.account, amount: ledgerEntries.amount })
        .from(ledgerEntries)
        .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
        .where(eq(ledgerTransactions.reference, `entry:${entry?.id}`));
      expect(lines).toEqual(
        expect.arrayContaining([
          { account: 'wallet', amount: -game.entryFee },
          { account: 'revenue:entry_fees', amount: game.entryFee },
        ]),
      );
      expect(lines).toHaveLength(2);
    }

    const broke = await unlimitedPlayer(app, 0n);
    mine.push(broke.id);
    expect((await play(app, broke, free.id)).statusCode).toBe(201);
    await expectLedgerOk(app.db, mine);
  });

  it('takes the place, records the answer and debits the fee together or not at all', async () => {
    const app = fileApp();
    const game = await createGame(app.db, { entryFee: 20_000n, maximumPlayers: 5, playerCount: 4 });
    const player = await unlimitedPlayer(app, 30_000n);
    const state = async () => ({
      game: (await app.db.select().from(games).where(eq(games.id, game.id)))[0],
      entries: await entriesOf(app, player.id),
      balance: await balanceOf(app, player.id),
      ledger: await app.db
        .select()
        .from(ledgerTransactions)
        .where(like(ledgerTransactions.description, `%${game.title}%`)),
      jobs: await app.db
        .select()
        .from(jobs)
        .where(eq(jobs.key, `draw:${game.id}`)),
    });
    const before = await state();

    let failures = 0;
    for (let step = 1; ; step += 1) {
      const faulty = failingAtWrite(app.db, step);
      try {
        await playGame(
          faulty.db,
          await actorFor(app.db, player),
          { gameID: game.id, submittedAnswer: 'ok' },
          new Date(),
        );
      } catch (error) {
        expect(faulty.failed(), String(error)).toBe(true);
        expect(await state()).toEqual(before);
        failures += 1;
        continue;
      }
      expect(faulty.failed()).toBe(false);
      break;
    }
    // Place, entry, ledger transaction, its entries and wallet debit, draw job: each one failed.
    expect(failures).toBeGreaterThanOrEqual(5);
    const after = await state();
    expect(after.game).toMatchObject({ playerCount: 5, status: 'CLOSED' });
    expect(after.entries).toHaveLength(1);
    expect(after.balance).toBe(10_000n);
    expect(after.ledger).toHaveLength(1);
    expect(after.jobs).toHaveLength(1);
    await expectLedgerOk(app.db, [player.id]);
  });
});

describe('POST /game/play: daily limit', () => {
  it('allows settings.dailyGameLimit games per Lagos day without a plan', async () => {
    // 21:30 UTC on 14 March 2031 is 22:30 in Lagos (UTC+1 all year round).
    const clock = testClock(new Date('2031-03-14T21:30:00Z'));
    const app = await buildTestApp(database(), {}, { clock });
    const { dailyGameLimit: limit } = await readSettingsRow(app.db);
    const player = await createPlayer(app.db);
    const pool = await Promise.all(Array.from({ length: limit + 3 }, () => createGame(app.db)));
    endAfterTest(app, pool);
    const next = () => pool.shift() as GameRow;

    for (let i = 0; i < limit; i += 1)
      expect((await play(app, player, next().id)).statusCode).toBe(201);
    const refused = {
      statusCode: 403,
      code: 'DAILY_LIMIT_REACHED',
      message: dailyLimitMessage(limit),
    };
    expect((await play(app, player, next().id)).json()).toEqual(refused);
    // 22:59:59 UTC is 23:59:59 in Lagos: still the same day, although it is late in UTC terms.
    clock.set('2031-03-14T22:59:59Z');
    const stillToday = next();
    expect((await play(app, player, stillToday.id)).json()).toEqual(refused);
    // 23:00 UTC is midnight in Lagos: a new day, an hour before UTC's.
    clock.set('2031-03-14T23:00:00Z');
    expect((await play(app, player, stillToday.id)).statusCode).toBe(201);
    expect((await play(app, player, next().id)).statusCode).toBe(201);
    expect(dailyLimitMessage(limit)).toBe(
      `You have reached your daily limit of ${limit} games. Go VIP for unlimited games.`,
    );
  });

  it("uses the plan's gamesPerDay instead, and null means unlimited", async () => {
    const clock = testClock(new Date('2032-07-01T09:00:00Z'));
    const app = await buildTestApp(database(), {}, { clock });
    const { dailyGameLimit: limit } = await readSettingsRow(app.db);
    const two = await createPlan(app.db, { gamesPerDay: 2 });
    const unlimited = await createPlan(app.db, { gamesPerDay: null });
    const twoPlayer = await createPlayer(app.db, { planId: two.id });
    const vipPlayer = await createPlayer(app.db, { planId: unlimited.id });
    const pool = await Promise.all(Array.from({ length: limit + 2 }, () => createGame(app.db)));
    endAfterTest(app, pool);

    const results: number[] = [];
    for (const game of pool.slice(0, 3))
      results.push((await play(app, twoPlayer, game.id)).statusCode);
    expect(results).toEqual([201, 201, 403]);
    expect((await play(app, twoPlayer, (pool[2] as GameRow).id)).json().message).toBe(
      dailyLimitMessage(2),
    );
    for (const game of pool) expect((await play(app, vipPlayer, game.id)).statusCode).toBe(201);
    const count = await app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(gameEntries)
      .where(eq(gameEntries.userId, vipPlayer.id));
    expect(count[0]?.n).toBe(limit + 2);
  });
});
