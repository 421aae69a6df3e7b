import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { GameType } from '../../../shared/constants.ts';
import { lagosDayStart } from '../../../shared/date.ts';
import { checkAnswerRule } from '../../../shared/games.ts';
import { ANSWER_MESSAGES, PAGE_TEXTS } from '../../../shared/messages.ts';
import { formatNaira, koboToNaira, nairaToKobo } from '../../../shared/money.ts';
import type { Game, PlayedGame, PlayGameBody, PlayResult } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { entryOutcome } from '../../db/outcome.ts';
import { gameEntries, games, plans, users } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError, badRequest, conflict, ErrorCode, forbidden, notFound } from '../../errors.ts';
import { maxKobo } from '../../lib/kobo.ts';
import { type Actor, lockLiveAccount } from '../auth/live-account.ts';
import { queueDraw } from '../draws/queue.ts';
import { takePlace } from '../game-lifecycle/moves.ts';
import { assertNotExcluded } from '../responsible-play/exclusions.ts';
import { assertWithinLimits } from '../responsible-play/limits.ts';
import { readSettingsRow } from '../settings/service.ts';
import { assertAgeConfirmed } from '../users/age.ts';
import { levelSql } from '../users/level.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';
import type { PlayRefusal } from './play-batch.ts';
import { playInOneStatement } from './play-fast.ts';
import { type GameRow, toApiGame } from './serialize.ts';

export const GAME_MESSAGES = {
  notFound: 'Game not found',
  notStarted: 'This game has not started yet. Check back when it is live.',
  closed: 'This game is closed to new answers',
  full: 'This game is full. Try another one.',
  alreadyPlayed: 'You have already played this game. Only one submission is allowed.',
  tournamentOnly: 'Tournaments are for VIP members. Upgrade your plan to play.',
  submitted: PAGE_TEXTS.answerSubmitted,
} as const;

export const dailyLimitMessage = (limit: number) =>
  `You have reached your daily limit of ${limit} games. Go VIP for unlimited games.`;
export const feeChangedMessage = (feeKobo: bigint) =>
  `The entry fee for this game has changed to ${formatNaira(koboToNaira(feeKobo))}. Nothing was charged: check the game and answer again.`;
export const rewardChangedMessage = (rewardKobo: bigint) =>
  `The reward for this game has changed to ${formatNaira(koboToNaira(rewardKobo))}. Nothing was charged: check the game and answer again.`;
export const minimumBalanceMessage = (koboNeeded: bigint) =>
  `You need at least ${formatNaira(koboToNaira(koboNeeded))} in your wallet to play this game. Top up to continue.`;

/**
 * The full play's answer for a game it finds full, closed or not started, which the play in one
 * statement tells apart when every check before those passed.
 */
function refusalError(refusal: PlayRefusal): AppError {
  if (refusal === 'full') return conflict(GAME_MESSAGES.full, ErrorCode.GameFull);
  if (refusal === 'not_started') return badRequest(GAME_MESSAGES.notStarted);
  return badRequest(GAME_MESSAGES.closed);
}

const LIST_LIMIT = 30;
/** Which of `gameIds` the player has entered: one probe each of the (game_id, user_id) index. */
export async function playedIds(
  db: Database,
  userId: string,
  gameIds: readonly string[],
): Promise<Set<string>> {
  if (gameIds.length === 0) return new Set();
  const rows = await db
    .select({ gameId: gameEntries.gameId })
    .from(gameEntries)
    .where(and(eq(gameEntries.userId, userId), inArray(gameEntries.gameId, [...gameIds])));
  return new Set(rows.map((row) => row.gameId));
}

/** The games of one list (docs/product.md#games-and-draws), the same for every player, in one query. */
export async function listGameRows(db: Database, type: GameType, now: Date): Promise<GameRow[]> {
  if (type === 'TRENDING') {
    const since = new Date(now.getTime() - 24 * 3_600_000);
    // A range of game_entries_game_created_idx per live game: entries of ongoing games are
    // undrawn (is_winner null, the index's condition), and drawn games' entries are not read.
    const recent = sql`(SELECT count(*) FROM game_entries e
      WHERE e.game_id = ${games.id} AND e.created_at >= ${since.toISOString()}::timestamptz
        AND e.is_winner IS NULL)`;
    return db
      .select()
      .from(games)
      .where(eq(games.status, 'ONGOING'))
      .orderBy(desc(recent), desc(games.playerCount), desc(games.createdAt))
      .limit(LIST_LIMIT);
  }
  if (type === 'NEW_CHALLANGES') {
    return db
      .select()
      .from(games)
      .where(inArray(games.status, ['UPCOMING', 'ONGOING']))
      .orderBy(desc(games.createdAt))
      .limit(LIST_LIMIT);
  }
  if (type === 'HIGHEST_PAYOUTS') {
    return db
      .select()
      .from(games)
      .where(eq(games.status, 'ONGOING'))
      .orderBy(desc(games.reward), desc(games.createdAt))
      .limit(LIST_LIMIT);
  }
  return db
    .select()
    .from(games)
    .where(and(eq(games.isTournament, true), inArray(games.status, ['UPCOMING', 'ONGOING'])))
    .orderBy(games.startsAt, desc(games.createdAt))
    .limit(LIST_LIMIT);
}

export async function getGame(db: Database, gameId: string, userId: string): Promise<Game> {
  const [row] = await db.select().from(games).where(eq(games.id, gameId)).limit(1);
  if (!row) throw notFound(GAME_MESSAGES.notFound);
  const played = await playedIds(db, userId, [row.id]);
  return toApiGame(row, played.has(row.id));
}

/**
 * The answer to store, checked by the rule the client shows (src/shared/games.ts). What is kept
 * is the visible text, not what was sent: it is what was counted and what operators and the
 * player read back, and hidden characters (tag-smuggled text, bidi overrides reordering what an
 * operator sees) never reach the database.
 */
export function normaliseAnswer(answer: string): string {
  const { visible, problem } = checkAnswerRule(answer);
  // The same rule as the body's size cap in the schema, so the same code as its failures.
  if (problem) throw badRequest(ANSWER_MESSAGES[problem], ErrorCode.ValidationFailed);
  return visible;
}

/**
 * Takes a place, records the answer and debits the entry fee in one transaction: in one
 * statement when every rule passes (`playInOneStatement`), else the steps below, which also
 * say why a play is refused. The player's row is locked first so one player's plays run one at a
 * time (daily limit, balance); the place is taken with a conditional counter so concurrent
 * players never oversell a game.
 */
export async function playGame(
  db: Database,
  actor: Actor,
  input: PlayGameBody,
  now: Date,
): Promise<PlayResult> {
  const userId = actor.id;
  const answer = normaliseAnswer(input.submittedAnswer);
  if (!/^[0-9a-f-]{36}$/i.test(input.gameID)) throw notFound(GAME_MESSAGES.notFound);

  try {
    const fast = await playInOneStatement(db, actor, input, answer, now, lagosDayStart(now));
    if (fast && 'played' in fast) return fast.played;
    if (fast) throw refusalError(fast.refused);
    const settings = await readSettingsRow(db);
    return await inTransaction(db, async (tx) => {
      await lockLiveAccount(tx, actor, now);
      const [player] = await tx
        .select({
          balance: users.accountBalance,
          features: plans.features,
          ageConfirmedAt: users.ageConfirmedAt,
          dailyGames: users.dailyGames,
          dailyGamesDay: users.dailyGamesDay,
        })
        .from(users)
        .leftJoin(plans, eq(plans.id, users.planId))
        .where(eq(users.id, userId))
        .for('update', { of: users });
      if (!player) throw notFound('User not found');
      assertAgeConfirmed(player);
      await assertNotExcluded(tx, userId, now);

      // Locked, as an operator's edit locks it: the terms checked here are the ones the place
      // below is taken on, never ones an edit replaced in between.
      const [game] = await tx
        .select()
        .from(games)
        .where(eq(games.id, input.gameID))
        .for('no key update');
      if (!game) throw notFound(GAME_MESSAGES.notFound);
      if (input.entryFee !== undefined && nairaToKobo(input.entryFee) !== game.entryFee)
        throw new AppError(ErrorCode.FeeChanged, feeChangedMessage(game.entryFee), {
          data: toApiGame(game, false),
        });
      if (input.reward !== undefined && nairaToKobo(input.reward) !== game.reward)
        throw new AppError(ErrorCode.RewardChanged, rewardChangedMessage(game.reward), {
          data: toApiGame(game, false),
        });
      if (game.status === 'UPCOMING') throw badRequest(GAME_MESSAGES.notStarted);
      // Taking the last place closes a game: later players are told it is full, the same
      // answer as for those who lose the race for that place below.
      if (game.status === 'CLOSED' && game.playerCount >= game.maximumPlayers)
        throw conflict(GAME_MESSAGES.full, ErrorCode.GameFull);
      if (game.status !== 'ONGOING') throw badRequest(GAME_MESSAGES.closed);
      if (game.isTournament && !player.features?.tournamentAccess)
        throw forbidden(GAME_MESSAGES.tournamentOnly, ErrorCode.VipOnly);

      const [existing] = await tx
        .select({ id: gameEntries.id })
        .from(gameEntries)
        .where(and(eq(gameEntries.gameId, game.id), eq(gameEntries.userId, userId)))
        .limit(1);
      if (existing) throw conflict(GAME_MESSAGES.alreadyPlayed, ErrorCode.AlreadyPlayed);

      const limit = player.features ? player.features.gamesPerDay : settings.dailyGameLimit;
      const dayStart = lagosDayStart(now);
      const playedToday =
        player.dailyGamesDay && player.dailyGamesDay >= dayStart ? player.dailyGames : 0;
      if (limit !== null && playedToday >= limit)
        throw forbidden(dailyLimitMessage(limit), ErrorCode.DailyLimitReached);

      if (game.entryFee > 0n) {
        const needed = maxKobo(game.entryFee, settings.minimumPaymentAmount);
        if (player.balance < needed)
          throw badRequest(minimumBalanceMessage(needed), ErrorCode.InsufficientFunds);
        // Counted under the row lock above, so concurrent plays cannot pass a limit together.
        await assertWithinLimits(tx, userId, 'spend', game.entryFee, now);
      }

      const place = await takePlace(tx, game.id, now);
      if (!place) throw conflict(GAME_MESSAGES.full, ErrorCode.GameFull);

      const [entry] = await tx
        .insert(gameEntries)
        .values({ gameId: game.id, userId, answer, amountPaid: game.entryFee, createdAt: now })
        .returning({ id: gameEntries.id });
      if (!entry) throw new Error('entry insert returned nothing');
      // Games played and +10 points count when the answer is taken (the draw adds only wins,
      // so it writes only its winners' rows; a cancelled game takes them back).
      const points = sql`${users.points} + 10`;
      await tx
        .update(users)
        .set({
          totalGamesPlayed: sql`${users.totalGamesPlayed} + 1`,
          points,
          level: levelSql(points),
          // The day's count, as the play in one statement keeps it (migration 0022).
          dailyGames: sql`CASE WHEN ${users.dailyGamesDay} >= ${dayStart.toISOString()}::timestamptz THEN ${users.dailyGames} + 1 ELSE 1 END`,
          dailyGamesDay: sql`greatest(${users.dailyGamesDay}, ${dayStart.toISOString()}::timestamptz)`,
        })
        .where(eq(users.id, userId));

      if (game.entryFee > 0n) {
        await post(tx, {
          kind: 'entry_fee',
          reference: `entry:${entry.id}`,
          description: `Entry fee for "${game.title}"`,
          lines: [
            { account: ACCOUNTS.wallet, userId, amount: -game.entryFee },
            { account: ACCOUNTS.entryFees, amount: game.entryFee },
          ],
        });
      }
      // Taking the last place closes the game; its draw is queued in the same transaction.
      if (place.status === 'CLOSED') await queueDraw(tx, game.id, now);

      return {
        entryId: entry.id,
        gameID: game.id,
        submittedAnswer: answer,
        amountPaid: koboToNaira(game.entryFee),
        amountToWin: koboToNaira(game.reward),
        playerCount: place.playerCount,
      };
    });
  } catch (error) {
    // Two plays racing past the check above: the unique index keeps exactly one.
    if (isUniqueViolation(error))
      throw conflict(GAME_MESSAGES.alreadyPlayed, ErrorCode.AlreadyPlayed);
    throw error;
  }
}

export async function listPlayedGames(db: Database, userId: string): Promise<PlayedGame[]> {
  const rows = await db
    .select({ entry: gameEntries, game: games })
    .from(gameEntries)
    .innerJoin(games, eq(games.id, gameEntries.gameId))
    .where(eq(gameEntries.userId, userId))
    .orderBy(desc(gameEntries.id))
    .limit(200);
  return rows.map(({ entry, game }) => ({
    id: String(entry.id),
    game: {
      id: game.id,
      title: game.title,
      isTournament: game.isTournament,
      maximumPlayers: game.maximumPlayers,
      playerCount: game.playerCount,
      status: game.status,
      endsAt: game.endsAt?.toISOString() ?? null,
    },
    submittedAnswer: entry.answer,
    amountPaid: koboToNaira(entry.amountPaid),
    amountToWin: koboToNaira(game.reward),
    isWinner: entryOutcome(entry.isWinner, game.status),
    createdAt: entry.createdAt.toISOString(),
  }));
}
