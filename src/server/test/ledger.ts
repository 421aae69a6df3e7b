import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../db/client.ts';
import { checkLedger } from '../modules/wallet/ledger-check.ts';

/**
 * checkLedger, with one allowance for a database other test files share: a cached balance that
 * disagrees with its entries only fails the test when it belongs to one of `userIds` (another
 * file may plant such a user on purpose). Those users are also checked one by one, exactly.
 */
export async function expectLedgerOk(db: Database, userIds: readonly string[]): Promise<void> {
  const perUser = new Set(['wallet_balances_match_entries', 'no_negative_balances']);
  const mine = new Set(userIds);
  // Game tests run the sandbox (no provider configured): sandbox top-ups are expected there.
  for (const invariant of (await checkLedger(db, { sandbox: true })).invariants) {
    const offending = perUser.has(invariant.name)
      ? invariant.offending.filter((row) => mine.has(String(row.user_id)))
      : invariant.offending;
    expect(offending, invariant.name).toEqual([]);
  }
  if (userIds.length === 0) return;
  const result = await db.execute(sql`
    SELECT u.id, u.account_balance::text AS cached,
      coalesce((SELECT sum(e.amount) FROM ledger_entries e
        WHERE e.account = 'wallet' AND e.user_id = u.id), 0)::text AS from_entries
    FROM users u WHERE u.id IN (${sql.join(
      userIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  const rows = (
    result as unknown as { rows: Array<{ id: string; cached: string; from_entries: string }> }
  ).rows;
  expect(rows).toHaveLength(mine.size);
  for (const row of rows) {
    expect(BigInt(row.cached) >= 0n, row.id).toBe(true);
    expect(row.cached, row.id).toBe(row.from_entries);
  }
}
