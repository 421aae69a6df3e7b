import { type SQL, sql } from 'drizzle-orm';

/**
 * What an entry's `is_winner` means once its game's status is known. A draw writes only its
 * winners (migration 0020), so a loser's entry keeps null: an entry of a COMPLETED game that is
 * not a winner lost. Losers of earlier draws hold false, which reads the same. Pending entries
 * and those of a cancelled game (refunded, never drawn) stay null.
 */
export function entryOutcome(isWinner: boolean | null, gameStatus: string): boolean | null {
  if (isWinner !== null) return isWinner;
  return gameStatus === 'COMPLETED' ? false : null;
}

/**
 * SQL: the entry `alias` was drawn (won or lost). By the game when is_winner is null, through a
 * hashed set of the completed games' ids, so a scan of many entries pays one hash probe each.
 */
export function drawnEntrySql(alias: string): SQL {
  const e = sql.raw(alias);
  return sql`(${e}.is_winner IS NOT NULL
    OR ${e}.game_id IN (SELECT id FROM games WHERE status = 'COMPLETED'))`;
}
