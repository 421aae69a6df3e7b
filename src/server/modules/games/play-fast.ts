import { koboToNaira, nairaToKobo } from '../../../shared/money.ts';
import type { PlayGameBody, PlayResult } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import type { Actor } from '../auth/live-account.ts';
import { PlayBatcher, type PlayRefusal, type PositionalClient } from './play-batch.ts';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A play that passes every rule, in one statement (`pluckers_play`, migration 0017) shared with
 * the plays that arrive with it (`PlayBatcher`): the player's row locked, the checks, the place,
 * the entry and the entry fee's ledger posting in one round trip instead of 15. When the
 * function declined (it then wrote nothing), the refusal if the game is full, closed or not
 * started; null for the rest (another rule refuses, a spend limit is set, or the play would take
 * the last place and close the game): the caller runs the full play in JavaScript, which answers
 * those cases. Also null when its batch failed (a deadlock between batches, say),
 * which the full play retries.
 */
export async function playInOneStatement(
  db: Database,
  actor: Actor,
  input: PlayGameBody,
  answer: string,
  now: Date,
  dayStart: Date,
): Promise<{ played: PlayResult } | { refused: PlayRefusal } | null> {
  // Anything PostgreSQL would not take as a uuid is the full play's to refuse.
  if (!UUID.test(input.gameID) || !UUID.test(actor.id) || !UUID.test(actor.sessionId)) return null;
  let seenFee: string | null = null;
  let seenReward: string | null = null;
  try {
    if (input.entryFee !== undefined) seenFee = nairaToKobo(input.entryFee).toString();
    if (input.reward !== undefined) seenReward = nairaToKobo(input.reward).toString();
  } catch {
    // Not a countable amount: the full play decides what to say (after its own checks).
    return null;
  }
  const row = await batcherOf(db).play({
    player: actor.id,
    session: actor.sessionId,
    tokenVersion: actor.tokenVersion,
    game: input.gameID,
    answer,
    seenFee,
    seenReward,
    at: now.toISOString(),
    dayStart: dayStart.toISOString(),
  });
  if (!row) return null;
  if (row.refusal !== null) return { refused: row.refusal };
  return {
    played: {
      entryId: Number(row.entry),
      gameID: row.game,
      submittedAnswer: answer,
      amountPaid: koboToNaira(BigInt(row.fee)),
      amountToWin: koboToNaira(BigInt(row.to_win)),
      playerCount: row.players,
    },
  };
}
