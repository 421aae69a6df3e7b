import type { Database, Transaction } from './client.ts';
import { isRetryableTransactionError } from './errors.ts';

const MAX_ATTEMPTS = 5;

/**
 * Runs `work` in one transaction, retrying serialization failures and deadlocks with a short
 * jittered backoff. `work` must be safe to repeat: it only touches the database through `tx`.
 */
export async function inTransaction<T>(
  db: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryableTransactionError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, attempt * 10 + Math.random() * 20));
    }
  }
}
