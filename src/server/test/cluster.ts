import { sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/client.ts';

/**
 * Runs `change` with the database's triggers off for its transaction, so no instance is
 * notified: what a lost notification (a dropped listening connection) leaves behind.
 */
export function withoutNotifications<T>(
  db: Database,
  change: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL session_replication_role = replica`);
    return change(tx);
  });
}

/**
 * Retries `check` until it passes or `withinMs` have gone by (then its last failure is thrown):
 * notifications from the database reach a PostgreSQL listener a few milliseconds after the
 * commit, not before the next statement.
 */
export async function eventually<T>(check: () => Promise<T>, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}
