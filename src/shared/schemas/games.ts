import { z } from 'zod';
import { ANSWER_MAX_SENT_CHARACTERS, GAME_STATUSES, GAME_TYPES } from '../constants.ts';
import { RULE_MESSAGES } from '../messages.ts';
import { nairaSchema, timestampSchema } from './common.ts';
import { fairnessLogRecordSchema } from './fairness.ts';

export const gameTypeSchema = z.enum(GAME_TYPES, {
  error: `gameType must be one of ${GAME_TYPES.join(', ')}`,
});
export const gameStatusSchema = z.enum(GAME_STATUSES);

export const gameSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  categoryID: z.string().nullable(),
  entryFee: nairaSchema,
  reward: nairaSchema,
  maximumPlayers: z.number().int(),
  playerCount: z.number().int(),
  status: gameStatusSchema,
  isTournament: z.boolean(),
  hasPlayedGame: z.boolean(),
  startsAt: timestampSchema.nullable(),
  endsAt: timestampSchema.nullable(),
  /** sha256 of the secret draw seed, published before anyone plays. */
  commitment: z.string(),
  createdAt: timestampSchema,
});
export type Game = z.infer<typeof gameSchema>;

export const gameListQuerySchema = z.object({ gameType: gameTypeSchema.default('TRENDING') });
export const gameListSchema = z.object({ games: z.array(gameSchema) });

export const playGameSchema = z.object({
  gameID: z
    .string({ error: 'Choose a game to play' })
    .min(1, 'Choose a game to play')
    .max(100, 'Choose a game to play'),
  submittedAnswer: z
    .string({ error: 'Type your answer' })
    .max(ANSWER_MAX_SENT_CHARACTERS, RULE_MESSAGES.answerTooLong),
  /**
   * The entry fee (naira) the player was shown. When it no longer matches the game's fee (an
   * operator changed it meanwhile) nothing is charged: 409, with the fresh game as `data`.
   */
  entryFee: z
    .number({ error: 'The entry fee must be a number' })
    .min(0, 'The entry fee cannot be negative')
    .max(100_000_000, 'The entry fee is too large')
    .optional(),
  /**
   * The reward (naira) the player was shown. When it no longer matches the game's reward,
   * nothing is charged: 409 REWARD_CHANGED, with the fresh game as `data`.
   */
  reward: z
    .number({ error: 'The reward must be a number' })
    .min(0, 'The reward cannot be negative')
    .max(100_000_000, 'The reward is too large')
    .optional(),
});
export type PlayGameBody = z.infer<typeof playGameSchema>;

export const playedGameSchema = z.object({
  id: z.string(),
  game: z.object({
    id: z.string(),
    title: z.string(),
    isTournament: z.boolean(),
    maximumPlayers: z.number().int(),
    playerCount: z.number().int(),
    status: gameStatusSchema,
    /** When the game closes by itself, if it does (the draw runs then at the latest). */
    endsAt: timestampSchema.nullable(),
  }),
  submittedAnswer: z.string(),
  amountPaid: nairaSchema,
  amountToWin: nairaSchema,
  /** null = pending review, true = WON, false = LOST */
  isWinner: z.boolean().nullable(),
  createdAt: timestampSchema,
});
export type PlayedGame = z.infer<typeof playedGameSchema>;

export const leaderboardQuerySchema = z.object({
  dateFrom: z.iso.date({ error: 'dateFrom must be YYYY-MM-DD' }).optional(),
  dateTo: z.iso.date({ error: 'dateTo must be YYYY-MM-DD' }).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  categoryID: z.string().max(100, 'Choose a category').optional(),
});

export const leaderboardEntrySchema = z.object({
  username: z.string(),
  isVerified: z.boolean(),
  level: z.number().int(),
  totalAmountWon: nairaSchema,
  totalPoints: z.number().int(),
});
export type LeaderboardEntry = z.infer<typeof leaderboardEntrySchema>;

/** GET /leaderboard/me: the player's own place on the same board, or null when unranked. */
export const leaderboardRankSchema = z.object({
  rank: z.number().int().nullable(),
  entry: leaderboardEntrySchema.nullable(),
});
export type LeaderboardRank = z.infer<typeof leaderboardRankSchema>;

export const playResultSchema = z.object({
  entryId: z.number().int(),
  gameID: z.string(),
  submittedAnswer: z.string(),
  amountPaid: nairaSchema,
  amountToWin: nairaSchema,
  playerCount: z.number().int(),
});
export type PlayResult = z.infer<typeof playResultSchema>;

export const drawProofSchema = z.object({
  gameId: z.string(),
  status: gameStatusSchema,
  /** 1: seed-only draw (games created before sealed draws); 2: sealed entries + beacon. */
  version: z.number().int(),
  commitment: z.string(),
  seed: z.string().nullable(),
  entriesDigest: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** Merkle root of the entries sealed at close (version 2), published from the close on. */
  merkleRoot: z.string().nullable(),
  /**
   * The beacon round the draw uses: fixed by the close time; its signature and randomness
   * once the draw has run. `expectedAt` is when the round is published.
   */
  beacon: z
    .object({
      chain: z.object({
        hash: z.string(),
        publicKey: z.string(),
        genesisTime: z.number().int(),
        period: z.number().int(),
      }),
      round: z.number().int(),
      expectedAt: z.string(),
      signature: z.string().nullable(),
      randomness: z.string().nullable(),
    })
    .nullable(),
  /** Why a closed game is not drawn yet (waiting for the beacon, beacon unreachable). */
  waitingFor: z.string().nullable(),
  cancelReason: z.string().nullable(),
  entries: z.array(
    z.object({
      entryId: z.number().int(),
      username: z.string(),
      playerId: z.string().optional(),
      answerHash: z.string().optional(),
    }),
  ),
  winners: z.array(z.number().int()),
  winnerUsernames: z.array(z.string()),
  log: z.array(fairnessLogRecordSchema),
});
export type DrawProofResponse = z.infer<typeof drawProofSchema>;
