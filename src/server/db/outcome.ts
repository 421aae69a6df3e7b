import { type SQL, sql } from 'drizzle-orm';
import type { gameEntries } from './schema.ts';

/**
 * What an entry's draw said once its game's status is known. A draw writes only its winners,
 * into game_winners (migration 0033), so an entry of a COMPLETED game without a winner row
 * lost. Pending entries and those of a cancelled game (refunded, never drawn) are null.
 */
export function entryOutcome(won: boolean, gameStatus: string): boolean | null {
  if (won) return true;
  return gameStatus === 'COMPLETED' ? false : null;
}

/** SQL: the entry `alias` won its game's draw (one key lookup in game_winners). */
export function wonEntrySql(alias: string): SQL<boolean> {
  const e = sql.raw(alias);
  return sql<boolean>`EXISTS (SELECT 1 FROM game_winners w WHERE w.game_id = ${e}.game_id AND w.entry_id = ${e}.id)`;
}

/** `wonEntrySql` for a query built on the game_entries table itself. */
export function wonSql(entries: typeof gameEntries): SQL<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM game_winners w WHERE w.game_id = ${entries.gameId} AND w.entry_id = ${entries.id})`;
}

/**
 * SQL: the entry `alias` was drawn (won or lost): its game is COMPLETED. As an EXISTS, which
 * PostgreSQL runs as a key lookup per entry when it expects few (a player's entries) and as one
 * hashed set of the completed games when many. As an IN it was planned as the set built for
 * every player counted, which took the leaderboard's points statement over the JIT threshold.
 */
export function drawnEntrySql(alias: string): SQL {
  const e = sql.raw(alias);
  return sql`EXISTS (SELECT 1 FROM games g WHERE g.id = ${e}.game_id AND g.status = 'COMPLETED')`;
}
