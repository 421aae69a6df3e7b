import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

export interface InvariantResult {
  name: string;
  description: string;
  ok: boolean;
  /** Up to 50 rows that break the invariant. */
  offending: Record<string, unknown>[];
}

const LIMIT = 50;

async function rows(
  db: Executor,
  query: ReturnType<typeof sql>,
): Promise<Record<string, unknown>[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: Record<string, unknown>[] }).rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => [
        key,
        typeof value === 'bigint' ? value.toString() : value,
      ]),
    ),
  );
}

/** Every invariant of DESIGN §3, with the rows that break it. Used by tests and operators. */
export async function checkLedger(
  db: Executor,
): Promise<{ ok: boolean; invariants: InvariantResult[] }> {
  const checks: Array<
    Omit<InvariantResult, 'ok' | 'offending'> & { query: ReturnType<typeof sql> }
  > = [
    {
      name: 'balanced_transactions',
      description: 'The entries of every transaction sum to zero',
      query: sql`SELECT transaction_id, sum(amount)::text AS total FROM ledger_entries
        GROUP BY transaction_id HAVING sum(amount) <> 0 LIMIT ${LIMIT}`,
    },
    {
      name: 'ledger_sums_to_zero',
      description: 'All entries together sum to zero',
      query: sql`SELECT sum(amount)::text AS total FROM ledger_entries HAVING coalesce(sum(amount), 0) <> 0`,
    },
    {
      name: 'wallet_balances_match_entries',
      description: "Each user's cached balance equals the sum of their wallet entries",
      query: sql`SELECT u.id AS user_id, u.account_balance::text AS cached, coalesce(e.total, 0)::text AS from_entries
        FROM users u LEFT JOIN (
          SELECT user_id, sum(amount) AS total FROM ledger_entries WHERE account = 'wallet' GROUP BY user_id
        ) e ON e.user_id = u.id
        WHERE u.account_balance <> coalesce(e.total, 0) LIMIT ${LIMIT}`,
    },
    {
      name: 'no_negative_balances',
      description: 'No wallet balance is negative',
      query: sql`SELECT id AS user_id, account_balance::text AS balance FROM users WHERE account_balance < 0 LIMIT ${LIMIT}`,
    },
    {
      name: 'transactions_have_entries',
      description: 'Every transaction has at least two entries',
      query: sql`SELECT t.id AS transaction_id, count(e.id)::int AS entries FROM ledger_transactions t
        LEFT JOIN ledger_entries e ON e.transaction_id = t.id GROUP BY t.id HAVING count(e.id) < 2 LIMIT ${LIMIT}`,
    },
  ];
  const invariants: InvariantResult[] = [];
  for (const check of checks) {
    const offending = await rows(db, check.query);
    invariants.push({
      name: check.name,
      description: check.description,
      ok: offending.length === 0,
      offending,
    });
  }
  return { ok: invariants.every((invariant) => invariant.ok), invariants };
}
