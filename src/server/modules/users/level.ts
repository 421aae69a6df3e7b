import { type SQL, sql } from 'drizzle-orm';

/**
 * A player's level for `points`: 1 under 100, 2 under 500, 3 under 2,000, 4 under 10,000, then 5.
 * Written where the points change (a play's +10, a win's +50), in the same statement.
 */
export const levelSql = (points: SQL) =>
  sql`CASE WHEN ${points} < 100 THEN 1 WHEN ${points} < 500 THEN 2 WHEN ${points} < 2000 THEN 3 WHEN ${points} < 10000 THEN 4 ELSE 5 END`;
