import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { GameType } from '../../../shared/constants.ts';
import { lagosDayStart } from '../../../shared/date.ts';
import { checkAnswerRule } from '../../../shared/games.ts';
import { ACCOUNT_MESSAGES, ANSWER_MESSAGES, PAGE_TEXTS } from '../../../shared/messages.ts';
import { formatNaira, koboToNaira } from '../../../shared/money.ts';
import {
  ACCOUNT_PAUSED_MESSAGE,
  type ExclusionKind,
  exclusionMessage,
  type IdentityKeyKind,
  type LimitPeriod,
  provesOwner,
} from '../../../shared/responsible-play.ts';
import type { Game, PlayedGame, PlayGameBody, PlayResult } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { entryOutcome, wonSql } from '../../db/outcome.ts';
import { gameEntries, games } from '../../db/schema.ts';
import {
  AppError,
  badRequest,
  conflict,
  ErrorCode,
  forbidden,
  notFound,
  unauthorized,
} from '../../errors.ts';
import type { Actor } from '../auth/live-account.ts';
import { limitBreachMessage } from '../responsible-play/limits.ts';
import { AGE_MESSAGES } from '../users/age.ts';
import { playArguments, playOnce } from './play.ts';
import type { PlayedRow, PlayRefusal } from './play-batch.ts';
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
    // A range of game_entries_game_created_idx per live game; drawn games' entries are not read.
    const recent = sql`(SELECT count(*) FROM game_entries e
      WHERE e.game_id = ${games.id} AND e.created_at >= ${since.toISOString()}::timestamptz)`;
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Takes a place, records the answer and debits the entry fee, or refuses: `pluckers_play`
 * decides (`playOnce`), and this says its answer in the API's words.
 */
export async function playGame(
  db: Database,
  actor: Actor,
  input: PlayGameBody,
  now: Date,
): Promise<PlayResult> {
  const answer = normaliseAnswer(input.submittedAnswer);
  if (!UUID.test(input.gameID)) throw notFound(GAME_MESSAGES.notFound);
  let row: PlayedRow;
  try {
    row = await playOnce(db, playArguments(actor, input, answer, now, lagosDayStart(now)), now);
  } catch (error) {
    // The player's row is locked before the check for an earlier answer, so this is a last guard:
    // the unique index keeps exactly one.
    if (isUniqueViolation(error))
      throw conflict(GAME_MESSAGES.alreadyPlayed, ErrorCode.AlreadyPlayed);
    throw error;
  }
  if (row.refusal !== null)
    throw await refusalError(db, row.refusal, row.detail ?? {}, input.gameID);
  return {
    entryId: Number(row.entry),
    gameID: row.game,
    submittedAnswer: answer,
    amountPaid: koboToNaira(BigInt(row.fee)),
    amountToWin: koboToNaira(BigInt(row.to_win)),
    playerCount: row.players,
  };
}

/** What the player is told of a refusal, from its code and the figures `pluckers_play` gave. */
async function refusalError(
  db: Database,
  refusal: PlayRefusal,
  detail: Record<string, unknown>,
  gameId: string,
): Promise<AppError> {
  switch (refusal) {
    case 'unauthorized':
      return unauthorized();
    case 'suspended':
      return unauthorized(ACCOUNT_MESSAGES.suspended);
    case 'age_unconfirmed':
      return forbidden(AGE_MESSAGES.required, ErrorCode.AgeUnconfirmed);
    case 'paused':
      // A break bound by a key the account has not proven is not the account's to see.
      return forbidden(
        detail.boundFrom === null || provesOwner((detail.boundBy ?? []) as IdentityKeyKind[])
          ? exclusionMessage(detail.kind as ExclusionKind, new Date(detail.endsAt as string))
          : ACCOUNT_PAUSED_MESSAGE,
        ErrorCode.PlayPaused,
      );
    case 'not_found':
      return notFound(GAME_MESSAGES.notFound);
    case 'fee_changed':
    case 'reward_changed': {
      // The game as it is now, for the player to look at again.
      const [game] = await db.select().from(games).where(eq(games.id, gameId));
      if (!game) return notFound(GAME_MESSAGES.notFound);
      return refusal === 'fee_changed'
        ? new AppError(ErrorCode.FeeChanged, feeChangedMessage(game.entryFee), {
            data: toApiGame(game, false),
          })
        : new AppError(ErrorCode.RewardChanged, rewardChangedMessage(game.reward), {
            data: toApiGame(game, false),
          });
    }
    case 'not_started':
      return badRequest(GAME_MESSAGES.notStarted);
    case 'full':
      return conflict(GAME_MESSAGES.full, ErrorCode.GameFull);
    case 'closed':
      return badRequest(GAME_MESSAGES.closed);
    case 'tournament_only':
      return forbidden(GAME_MESSAGES.tournamentOnly, ErrorCode.VipOnly);
    case 'already_played':
      return conflict(GAME_MESSAGES.alreadyPlayed, ErrorCode.AlreadyPlayed);
    case 'daily_limit':
      return forbidden(dailyLimitMessage(Number(detail.limit)), ErrorCode.DailyLimitReached);
    case 'insufficient_funds':
      return badRequest(
        minimumBalanceMessage(BigInt(detail.needed as number)),
        ErrorCode.InsufficientFunds,
      );
    case 'spend_limit':
      return badRequest(
        limitBreachMessage({
          kind: 'spend',
          period: detail.period as LimitPeriod,
          limit: BigInt(detail.limit as number),
          remaining: BigInt(detail.remaining as number),
          end: new Date(detail.end as string),
        }),
      );
    case 'last_place':
      throw new Error('a play alone never leaves the last place to its caller');
  }
}

export async function listPlayedGames(db: Database, userId: string): Promise<PlayedGame[]> {
  const rows = await db
    .select({ entry: gameEntries, won: wonSql(gameEntries), game: games })
    .from(gameEntries)
    .innerJoin(games, eq(games.id, gameEntries.gameId))
    .where(eq(gameEntries.userId, userId))
    .orderBy(desc(gameEntries.id))
    .limit(200);
  return rows.map(({ entry, won, game }) => ({
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
    isWinner: entryOutcome(won, game.status),
    createdAt: entry.createdAt.toISOString(),
  }));
}
