import { and, eq, sql } from 'drizzle-orm';
import {
  type BeaconChain,
  type BeaconRound,
  firstRoundAfter,
  roundTime,
} from '../../../shared/beacon.ts';
import {
  drawWinners,
  drawWinnersV2,
  winnerCount,
  winnersDigestOf,
} from '../../../shared/fairness.ts';
import { gameDetailsPath } from '../../../shared/games.ts';
import { formatNaira, koboToNaira } from '../../../shared/money.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { gameEntries, gameResultNotices, games } from '../../db/schema.ts';

import { inTransaction } from '../../db/transaction.ts';
import type { BeaconClient } from '../../providers/beacon.ts';
import { appendFairnessRecord, chainFairnessLog } from '../fairness/log.ts';
import { moveGame } from '../game-lifecycle/moves.ts';
import { queuePush } from '../notifications/fan-out.ts';
import { levelSql } from '../users/level.ts';
import { ACCOUNTS } from '../wallet/ledger.ts';
import { entriesDigestOfSorted, nodeFairnessCrypto } from './commitment.ts';

type GameRow = typeof games.$inferSelect;

export type DrawOutcome = 'completed' | 'cancelled' | 'skipped';

export const DRAW_MESSAGES = {
  randomnessPublic:
    "This game's draw randomness is already public, so it can no longer be cancelled: the draw will run",
} as const;

/**
 * Whether anyone could already compute a closed game's winners: its beacon round is out. From
 * then on an operator cancelling it would be choosing the outcome, so it may not.
 */
export function drawOutcomeIsPublic(
  chain: BeaconChain,
  game: Pick<GameRow, 'drawVersion' | 'closedAt' | 'playerCount'>,
  now: Date,
): boolean {
  if (game.drawVersion < 2 || !game.closedAt || winnerCount(game.playerCount) === 0) return false;
  return now >= roundTime(chain, firstRoundAfter(chain, game.closedAt));
}

/** The statements of a draw, in order; the bench reports the time of each. */
export type DrawStep =
  | 'read entries'
  | 'pick winners'
  | 'mark entries'
  | 'post prizes'
  | 'update players'
  | 'notify players'
  | 'complete game';

/** Told how long each step of a draw took (milliseconds). */
export type DrawStepTimer = (step: DrawStep, milliseconds: number) => void;

/** Ids per query when a draw reads a game's entry ids. */
const ID_PAGE = 100_000;

/**
 * A game's entry ids in sealed (id) order in one plain array, a page at a time. Each page comes
 * as one comma-separated text parsed digit by digit: a row object per entry cost a million-entry
 * draw ~200 MB of RSS, this ~10 MB.
 */
async function entryIdsOf(tx: Transaction, gameId: string): Promise<number[]> {
  const ids: number[] = [];
  for (let afterId = 0; ; ) {
    const { rows } = (await tx.execute(sql`
      SELECT string_agg(id::text, ',' ORDER BY id) AS ids FROM (
        SELECT id FROM game_entries WHERE game_id = ${gameId} AND id > ${afterId}
        ORDER BY id LIMIT ${ID_PAGE}) page`)) as unknown as { rows: Array<{ ids: string | null }> };
    const page = rows[0]?.ids;
    if (!page) return ids;
    const before = ids.length;
    appendIds(page, ids);
    if (ids.length - before < ID_PAGE) return ids;
    afterId = ids[ids.length - 1] as number;
  }
}

const COMMA = 44;
const ZERO = 48;

function appendIds(commaSeparated: string, into: number[]): void {
  let value = 0;
  for (let i = 0; i < commaSeparated.length; i += 1) {
    const code = commaSeparated.charCodeAt(i);
    if (code === COMMA) {
      into.push(value);
      value = 0;
    } else value = value * 10 + code - ZERO;
  }
  into.push(value);
}

/**
 * Settles a CLOSED game in one transaction: picks floor(n/5) winners with the provably fair
 * procedure, credits each the reward through the ledger, records the winners, updates
 * their stats and notifies every player (one result notice for the game); under 5 players the
 * game is cancelled and every fee refunded. The game row is locked and must still be CLOSED, so
 * a second run (or a re-run after a crash, which rolled everything back) does nothing twice. Set-based SQL keeps a 1,000,000-entry draw quick;
 * Node holds the entry ids and the winners, never the entries.
 */
export async function runDraw(
  db: Database,
  gameId: string,
  now: Date,
  beacon?: BeaconRound,
  timeStep: DrawStepTimer = () => {},
): Promise<DrawOutcome> {
  const step = async <T>(name: DrawStep, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    timeStep(name, performance.now() - started);
    return result;
  };
  return inTransaction(db, async (tx) => {
    const [game] = await tx.select().from(games).where(eq(games.id, gameId)).for('update');
    if (game?.status !== 'CLOSED') return 'skipped';

    const entryIds = await step('read entries', () => entryIdsOf(tx, gameId));
    if (winnerCount(entryIds.length) === 0) {
      await cancelWithRefunds(tx, game, now, {
        rule: 'fewer-than-5-players',
        why: 'ended with fewer than 5 players, so it was cancelled',
      });
      return 'cancelled';
    }

    const { winners, entriesDigest } = await step('pick winners', () =>
      pickWinners(game, entryIds, beacon),
    );
    const reward = game.reward;

    // Only the winners are written, each a row of game_winners with its entry's player and
    // time: no entry is rewritten, so none of the entries' indexes is touched, and a loser reads
    // as lost once the game is COMPLETED (db/outcome.ts). In id order, the table's key order.
    const winnersInIdOrder = `{${[...winners].sort((a, b) => a - b).join(',')}}`;
    await step('mark entries', () =>
      tx.execute(sql`
      INSERT INTO game_winners (game_id, entry_id, user_id, prize, created_at)
      SELECT e.game_id, e.id, e.user_id, ${reward}::bigint, e.created_at
      FROM unnest(${winnersInIdOrder}::bigint[]) AS w(id) JOIN game_entries e ON e.id = w.id
      WHERE e.game_id = ${gameId}
      ORDER BY e.id`),
    );

    if (reward > 0n) await step('post prizes', () => postPrizes(tx, game, winners.length));

    // The winners' stats: a win, the reward, +50 points. Every player's game and +10 points
    // were counted when the answer was taken (migration 0021), so losers' rows stay as they are.
    const points = sql.raw('u.points + 50');
    await step('update players', () =>
      tx.execute(sql`
      UPDATE users u SET
        account_balance = u.account_balance + ${reward}::bigint,
        total_games_won = u.total_games_won + 1,
        total_winning_amount = u.total_winning_amount + ${reward}::bigint,
        points = ${points},
        level = ${levelSql(points)}
      FROM game_winners w WHERE w.game_id = ${gameId} AND w.user_id = u.id`),
    );

    // One notice for the whole game, read by each player as the winner's or the loser's text
    // (notifications/service.ts): a row per player was a million rows for a million entries.
    const rewardText = formatNaira(koboToNaira(reward));
    await step('notify players', () =>
      tx.insert(gameResultNotices).values({
        gameId,
        winnerTitle: 'You won!',
        winnerMessage: `Congratulations! You are a winner of "${game.title}". ${rewardText} has been added to your wallet.`,
        loserTitle: 'Results are in',
        loserMessage: `The draw for "${game.title}" is done. You did not win this time; keep plucking!`,
        link: gameDetailsPath(gameId),
        createdAt: now,
      }),
    );

    await step('complete game', () => completeGame(tx, game, now, beacon, entriesDigest, winners));
    return 'completed';
  });
}

/**
 * The game's winners' prizes in one balanced ledger transaction, through ledger_post: one line per
 * winner, one prize-expense line for the total. The wallets themselves are credited by the
 * players' update in runDraw, with their stats, so each winner's row is written once.
 */
async function postPrizes(tx: Transaction, game: GameRow, winners: number): Promise<void> {
  const total = game.reward * BigInt(winners);
  // In player order: each line's place in the wallet index, and the commit's check that every
  // line's player exists, then follow the users' order instead of jumping about.
  await tx.execute(sql`
    SELECT ledger_post('prize', ${`prizes:${game.id}`}, ${`Prizes: "${game.title}"`},
      array_append(array_agg('wallet'::ledger_account), ${ACCOUNTS.prizeExpense}::ledger_account),
      array_append(array_agg(user_id ORDER BY user_id), NULL::uuid),
      array_append(array_agg(${game.reward}::bigint), ${-total}::bigint),
      p_caller_credits_wallets => true)
    FROM game_winners WHERE game_id = ${game.id}`);
}

/** The result made public: the game COMPLETED with its beacon round, the fairness log, the push. */
async function completeGame(
  tx: Transaction,
  game: GameRow,
  now: Date,
  beacon: BeaconRound | undefined,
  entriesDigest: string,
  winners: readonly number[],
): Promise<void> {
  const gameId = game.id;
  // Devices and e-mails hear it from the worker once this commits, page by page.
  await queuePush(tx, { type: 'results', gameId });
  const completed = await moveGame(tx, gameId, 'draw', 'COMPLETED', {
    drawnAt: now,
    entriesDigest,
    beaconRound: beacon?.round ?? null,
    beaconSignature: beacon?.signature ?? null,
    beaconRandomness: beacon?.randomness ?? null,
  });
  if (!completed) throw new Error(`game ${gameId} was not closed when drawn`);
  if (beacon)
    await appendFairnessRecord(tx, {
      kind: 'beacon',
      gameId,
      fields: { round: beacon.round, signature: beacon.signature, randomness: beacon.randomness },
    });
  await appendFairnessRecord(tx, {
    kind: 'result',
    gameId,
    fields: {
      seed: game.seed,
      winners: winners.length,
      winnersDigest: await winnersDigestOf(nodeFairnessCrypto, winners),
    },
  });
}

/**
 * Cancels a game and refunds every entry fee in one balanced ledger transaction; every player
 * is told why and loses the game played and +10 points their play counted. The caller holds
 * the game row lock. No entry gets a winner row: nobody won or lost a game that was never
 * drawn (the app shows them as refunded, not as LOST).
 */
export async function cancelWithRefunds(
  tx: Transaction,
  game: GameRow,
  now: Date,
  cancellation: {
    /** The published rule that allows it: too few players, or an operator's stated reason. */
    rule: 'fewer-than-5-players' | 'operator';
    /** Told to players: "<title> <why>". */
    why: string;
    /** The operator's reason, published in the fairness log. */
    reason?: string;
  },
): Promise<void> {
  const { why } = cancellation;
  const gameId = game.id;
  const refunds = await tx
    .update(gameEntries)
    .set({ refunded: true })
    .where(and(eq(gameEntries.gameId, gameId), sql`${gameEntries.amountPaid} > 0`))
    .returning({ id: gameEntries.id });
  // The wallets are credited below with the players' stats, each player's row written once.
  if (refunds.length > 0)
    await tx.execute(sql`
      SELECT ledger_post('refund', ${`refunds:${gameId}`}, ${`Refunds: "${game.title}" ${why}`},
        array_append(array_agg('wallet'::ledger_account), ${ACCOUNTS.entryFees}::ledger_account),
        array_append(array_agg(user_id ORDER BY id), NULL::uuid),
        array_append(array_agg(amount_paid ORDER BY id), -sum(amount_paid)::bigint),
        p_caller_credits_wallets => true)
      FROM game_entries WHERE game_id = ${gameId} AND amount_paid > 0`);
  // Every fee back, and the game and its +10 points the play counted taken back.
  const points = sql.raw('u.points - 10');
  await tx.execute(sql`
    UPDATE users u SET
      account_balance = u.account_balance + e.amount_paid,
      total_games_played = u.total_games_played - 1,
      points = ${points},
      level = ${levelSql(points)}
    FROM game_entries e WHERE e.game_id = ${gameId} AND e.user_id = u.id`);
  await tx.execute(sql`
    INSERT INTO notifications (user_id, title, message, link, created_at)
    SELECT user_id, 'Game cancelled',
      CASE WHEN amount_paid > 0
        THEN ${`"${game.title}" ${why}. Your entry fee of ₦`} || to_char(round(amount_paid / 100.0), 'FM999,999,999,990') || ' has been refunded to your wallet.'
        ELSE ${`"${game.title}" ${why}.`} END,
      ${gameDetailsPath(gameId)},
      ${now.toISOString()}::timestamptz
    FROM game_entries WHERE game_id = ${gameId}`);
  await queuePush(tx, { type: 'results', gameId });
  const cancelReason = cancellation.reason ?? 'Fewer than 5 players took part';
  const cancelled = await moveGame(
    tx,
    gameId,
    cancellation.rule === 'operator' ? 'operator' : 'draw',
    'CANCELLED',
    { drawnAt: now, closedAt: game.closedAt ?? now, cancelReason },
  );
  if (!cancelled) throw new Error(`game ${gameId} could not be cancelled from ${game.status}`);
  await appendFairnessRecord(tx, {
    kind: 'cancellation',
    gameId,
    fields: { rule: cancellation.rule, reason: cancelReason, players: game.playerCount },
  });
}

/**
 * Seed-only games (version 1) draw from the seed and the entry list; sealed games (version 2)
 * from the seed, the Merkle root fixed at close and the verified beacon round.
 */
async function pickWinners(
  game: GameRow,
  entryIds: number[],
  beacon: BeaconRound | undefined,
): Promise<{ winners: number[]; entriesDigest: string }> {
  if (game.drawVersion < 2) return drawWinners(nodeFairnessCrypto, game.seed, entryIds);
  if (!beacon || !game.merkleRoot)
    throw new Error(`game ${game.id} needs its seal and a beacon round to be drawn`);
  const winners = await drawWinnersV2(
    nodeFairnessCrypto,
    game.seed,
    entryIds,
    game.merkleRoot,
    beacon.randomness,
  );
  return { winners, entriesDigest: entriesDigestOfSorted(entryIds) };
}

/**
 * The draw job: a sealed game with winners to pick waits for the first beacon round after its
 * close (BeaconUnavailableError: the job runs again when the round is due, or after a failed
 * fetch), then draws. Games that will be cancelled need no randomness.
 */
export async function drawGame(
  db: Database,
  beacon: BeaconClient,
  gameId: string,
  now: Date,
): Promise<DrawOutcome> {
  const [game] = await db
    .select({
      status: games.status,
      drawVersion: games.drawVersion,
      closedAt: games.closedAt,
      playerCount: games.playerCount,
    })
    .from(games)
    .where(eq(games.id, gameId));
  if (game?.status !== 'CLOSED') return 'skipped';
  const needsBeacon =
    game.drawVersion >= 2 && winnerCount(game.playerCount) > 0 && game.closedAt !== null;
  const round = needsBeacon
    ? await beacon.fetchRound(firstRoundAfter(beacon.chain, game.closedAt as Date), now)
    : undefined;
  const outcome = await runDraw(db, gameId, now, round);
  // The proof is complete once the result has its place in the public log: chain it now
  // rather than at the next tick (which would do it anyway if this fails).
  await chainFairnessLog(db).catch(() => 0);
  return outcome;
}
