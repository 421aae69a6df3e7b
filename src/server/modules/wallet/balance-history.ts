import { sql } from 'drizzle-orm';
import type { LedgerKind } from '../../../shared/ledger.ts';
import { koboToNaira } from '../../../shared/money.ts';
import {
  BALANCE_HISTORY_POSTINGS,
  type BalanceHistory,
  type BalanceMovement,
} from '../../../shared/schemas/wallet.ts';
import type { Executor } from '../../db/client.ts';
import { ACCOUNTS } from './ledger.ts';

/**
 * Every ledger kind as the player would name it. A Record, so a new kind cannot reach the
 * chart unnamed. The holds never touch a wallet (held money sits in `held:payments`) but are
 * top-ups in the player's eyes; money a bank sent back is a refund of the withdrawal.
 */
const MOVEMENT_OF: Record<LedgerKind, BalanceMovement> = {
  top_up: 'top_up',
  test_topup: 'top_up',
  payment_hold: 'top_up',
  payment_hold_release: 'top_up',
  payment_hold_return: 'top_up',
  entry_fee: 'entry',
  prize: 'prize',
  refund: 'refund',
  withdrawal_refund: 'refund',
  payout_reversal: 'refund',
  withdrawal: 'withdrawal',
  payout: 'withdrawal',
  plan: 'plan',
  plan_renewal: 'plan',
  adjustment: 'adjustment',
};

interface PostingRow {
  kind: LedgerKind;
  at: string | Date;
  change: string;
  balance: string;
}

/**
 * A player's wallet after each of its latest postings, oldest first. The running balance is a
 * window sum over all of the wallet's entries, so the last point is the sum of every entry: the
 * wallet's balance, as the ledger check holds it to `users.account_balance`. Postings are put
 * in the order of their first wallet entry's id: ledger_post writes a wallet's lines only while
 * it holds that player's row lock, so that order is the order the balance really moved in
 * (a transaction's own id is drawn before the lock). One posting rarely has two lines in one
 * wallet, but if it does they are one step.
 */
export async function balanceHistory(db: Executor, userId: string): Promise<BalanceHistory> {
  // One more than is answered, to know whether older postings exist.
  const result = await db.execute(sql`
    WITH recent AS (
      SELECT e.transaction_id, min(e.id) AS first_entry, sum(e.amount) AS change,
        sum(sum(e.amount)) OVER (ORDER BY min(e.id)) AS balance
      FROM ledger_entries e
      WHERE e.account = ${ACCOUNTS.wallet} AND e.user_id = ${userId}
      GROUP BY e.transaction_id
      ORDER BY first_entry DESC
      LIMIT ${BALANCE_HISTORY_POSTINGS + 1}
    )
    SELECT t.kind, t.created_at AS at, r.change::text AS change, r.balance::text AS balance
    FROM recent r JOIN ledger_transactions t ON t.id = r.transaction_id
    ORDER BY r.first_entry`);
  const rows = (result as unknown as { rows: PostingRow[] }).rows;
  const hasEarlier = rows.length > BALANCE_HISTORY_POSTINGS;
  const shown = hasEarlier ? rows.slice(1) : rows;
  return {
    points: shown.map((row) => ({
      at: new Date(row.at).toISOString(),
      balance: koboToNaira(BigInt(row.balance)),
      change: koboToNaira(BigInt(row.change)),
      movement: MOVEMENT_OF[row.kind],
    })),
    hasEarlier,
  };
}
