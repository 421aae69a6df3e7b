import { type SQL, sql } from 'drizzle-orm';

/**
 * A player's level for `points` (`pluckers_level`, src/server/db/functions/pluckers_level.sql,
 * which the play writes too). Written where the points change, in the same statement.
 */
export const levelSql = (points: SQL) => sql`pluckers_level(${points})`;
