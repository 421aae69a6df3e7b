import { koboToNaira, nairaToKobo } from '../../../shared/money.ts';
import type { PlayGameBody, PlayResult } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import { isRetryableTransactionError } from '../../db/errors.ts';
import type { Actor } from '../auth/live-account.ts';

interface PlayedRow {
  entry: string | number | bigint;
  game: string;
  players: number;
  fee: string | number | bigint;
  to_win: string | number | bigint;
}

const PLAY = `SELECT * FROM pluckers_play($1::uuid, $2::uuid, $3::integer, $4::uuid, $5::text,
  $6::bigint, $7::timestamptz, $8::timestamptz)`;

/** node-postgres's pool and PGlite both run text with positional parameters. */
interface PositionalClient {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Straight to the driver: building the statement through Drizzle cost more CPU than the rest
 * of the call. Unnamed (no server-side prepared statement), as Drizzle's are, so transaction
 * pooling (PgBouncer) keeps working.
 */
async function runPlay(db: Database, values: unknown[]): Promise<PlayedRow[]> {
  const client = (db as unknown as { $client: PositionalClient }).$client;
  return (await client.query(PLAY, values)).rows as PlayedRow[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A play that passes every rule, in one statement (`pluckers_play`, migration 0017): the
 * player's row locked, the checks, the place, the entry and the entry fee's ledger posting in
 * one round trip instead of 15. Null when the function declined (it then wrote nothing): a
 * rule refuses, a spend limit is set, or the play would take the last place and close the
 * game; the caller runs the full play in JavaScript, which answers those cases. Also null
 * after a deadlock or serialization failure, which the full play retries.
 */
export async function playInOneStatement(
  db: Database,
  actor: Actor,
  input: PlayGameBody,
  answer: string,
  now: Date,
  dayStart: Date,
): Promise<PlayResult | null> {
  // Anything PostgreSQL would not take as a uuid is the full play's to refuse.
  if (!UUID.test(input.gameID) || !UUID.test(actor.id) || !UUID.test(actor.sessionId)) return null;
  let seenFee: string | null = null;
  if (input.entryFee !== undefined) {
    try {
      seenFee = nairaToKobo(input.entryFee).toString();
    } catch {
      // Not a countable amount: the full play decides what to say (after its own checks).
      return null;
    }
  }
  let rows: PlayedRow[];
  try {
    rows = await runPlay(db, [
      actor.id,
      actor.sessionId,
      actor.tokenVersion,
      input.gameID,
      answer,
      seenFee,
      now.toISOString(),
      dayStart.toISOString(),
    ]);
  } catch (error) {
    if (isRetryableTransactionError(error)) return null;
    throw error;
  }
  const [row] = rows;
  if (!row) return null;
  return {
    entryId: Number(row.entry),
    gameID: row.game,
    submittedAnswer: answer,
    amountPaid: koboToNaira(BigInt(row.fee)),
    amountToWin: koboToNaira(BigInt(row.to_win)),
    playerCount: row.players,
  };
}
