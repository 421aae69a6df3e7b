import { desc, eq } from 'drizzle-orm';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';

/**
 * A user's newest rows of one table, newest first (the histories the console shows of a
 * player): `query` is the select over that table made dynamic
 * (`db.select().from(payments).$dynamic()`), `table` its columns, so the rows keep their type.
 */
export function newestRowsOf<Q extends PgSelect>(
  query: Q,
  table: { userId: PgColumn; createdAt: PgColumn },
  userId: string,
  limit: number,
) {
  return query.where(eq(table.userId, userId)).orderBy(desc(table.createdAt)).limit(limit);
}
