import { sql } from 'drizzle-orm';
import { nairaToKobo } from '../../../shared/money.ts';
import type { PlayGameBody } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Actor } from '../auth/live-account.ts';
import { queueDraw } from '../draws/queue.ts';
import { moveGame } from '../game-lifecycle/moves.ts';
import {
  type BatchedPlay,
  PlayBatcher,
  type PlayedRow,
  type PositionalClient,
} from './play-batch.ts';

/** One batcher per database handle: the app's pool, or a test's PGlite. */
const batchers = new WeakMap<Database, PlayBatcher>();

function batcherOf(db: Database): PlayBatcher {
  let batcher = batchers.get(db);
  if (!batcher) {
    // Straight to the driver: building the statement through Drizzle cost more CPU than the
    // rest of the call. Unnamed (no server-side prepared statement), as Drizzle's are, so
    // transaction pooling (PgBouncer) keeps working.
    batcher = new PlayBatcher((db as unknown as { $client: PositionalClient }).$client);
    batchers.set(db, batcher);
  }
  return batcher;
}

/** `pluckers_play`'s arguments for a request; the answer already normalised. */
export function playArguments(
  actor: Actor,
  input: PlayGameBody,
  answer: string,
  now: Date,
  dayStart: Date,
): BatchedPlay {
  return {
    player: actor.id,
    session: actor.sessionId,
    tokenVersion: actor.tokenVersion,
    game: input.gameID,
    answer,
    seenFee: input.entryFee === undefined ? null : nairaToKobo(input.entryFee).toString(),
    seenReward: input.reward === undefined ? null : nairaToKobo(input.reward).toString(),
    at: now.toISOString(),
    dayStart: dayStart.toISOString(),
  };
}

/**
 * The play's row from `pluckers_play` (src/server/db/functions/pluckers_play.sql), which
 * decides every rule and writes the place, the entry and the fee's posting, or nothing. It goes
 * with the plays that arrive with it (`PlayBatcher`): one round trip and one commit for all.
 * A play the batch leaves (`last_place`, or a batch that failed) is played alone: in a
 * transaction of its own, which retries a deadlock, may take the game's last place, and then
 * closes the game and queues its draw before it commits.
 */
export async function playOnce(db: Database, play: BatchedPlay, now: Date): Promise<PlayedRow> {
  const batched = await batcherOf(db).play(play);
  if (batched && batched.refusal !== 'last_place') return batched;
  return inTransaction(db, async (tx) => {
    const [row] = await rowsOf<PlayedRow>(
      tx,
      sql`SELECT * FROM pluckers_play(${play.player}::uuid, ${play.session}::uuid,
        ${play.tokenVersion}::integer, ${play.game}::uuid, ${play.answer}, ${play.seenFee}::bigint,
        ${play.seenReward}::bigint, ${play.at}::timestamptz, ${play.dayStart}::timestamptz, true)`,
    );
    if (!row) throw new Error('pluckers_play answered no row');
    if (row.refusal === null && row.last) {
      await moveGame(tx, row.game, 'player', 'CLOSED', { closedAt: now });
      await queueDraw(tx, row.game, now);
    }
    return row;
  });
}
