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
 * SQL: the entry `alias` was drawn (won or lost): by its game when is_winner is null. As an
 * EXISTS, which PostgreSQL runs as a key lookup per entry when it expects few (a player's
 * entries) and as one hashed set of the completed games when many. As an IN it was planned as
 * the set built for every player counted, which took the leaderboard's points statement over the
 * JIT threshold (+120 ms at 1,000,000 entries).
 */
export function drawnEntrySql(alias: string): SQL {
  const e = sql.raw(alias);
  return sql`(${e}.is_winner IS NOT NULL
    OR EXISTS (SELECT 1 FROM games g WHERE g.id = ${e}.game_id AND g.status = 'COMPLETED'))`;
}
