import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { ACCOUNTS } from './ledger.ts';

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

/**
 * Every invariant of docs/architecture.md#where-money-moves, with the rows that break it. Used by tests and operators.
 * `payments.sandbox` says whether this server runs the payments sandbox: in a live system a
 * sandbox credit (test money) is a failure until an operator has reviewed it.
 */
export async function checkLedger(
  db: Executor,
  payments: { sandbox: boolean },
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
      name: 'top_ups_match_payments',
      description:
        'Each successful payment credited its own wallet exactly its amount, once; nothing else was credited as a top-up',
      query: sql`SELECT p.reference, p.status, p.amount::text AS amount,
          count(DISTINCT t.id)::int AS postings, coalesce(sum(e.amount), 0)::text AS credited
        FROM payments p
        LEFT JOIN ledger_transactions t ON t.reference = 'topup:' || p.method || ':' || p.reference
        LEFT JOIN ledger_entries e ON e.transaction_id = t.id AND e.account = 'wallet' AND e.user_id = p.user_id
        GROUP BY p.id
        HAVING CASE WHEN p.status = 'SUCCESS'
          THEN count(DISTINCT t.id) <> 1 OR coalesce(sum(e.amount), 0) <> p.amount
          ELSE count(DISTINCT t.id) <> 0 END
        UNION ALL
        SELECT t.reference, 'NO SUCCESSFUL PAYMENT', NULL, 1, NULL FROM ledger_transactions t
        WHERE t.kind = 'top_up' AND NOT EXISTS (
          SELECT 1 FROM payments p WHERE p.status = 'SUCCESS'
            AND t.reference = 'topup:' || p.method || ':' || p.reference)
        LIMIT ${LIMIT}`,
    },
    {
      name: 'held_payments_accounted',
      description:
        'Money held past a deposit limit was held once and left the held account at most once, as each payment status says; the held account holds exactly the HELD payments',
      query: sql`SELECT p.reference, p.status, hold.id IS NOT NULL AS held, unhold.id IS NOT NULL AS unheld
        FROM payments p
        LEFT JOIN ledger_transactions hold ON hold.reference = 'hold:' || p.method || ':' || p.reference
        LEFT JOIN ledger_transactions unhold ON unhold.reference = 'unhold:' || p.method || ':' || p.reference
        WHERE NOT CASE
          WHEN p.status = 'HELD' THEN hold.id IS NOT NULL AND unhold.id IS NULL
          WHEN p.status = 'REFUNDED' THEN hold.id IS NOT NULL AND unhold.id IS NOT NULL
          WHEN p.status = 'SUCCESS' THEN (hold.id IS NULL) = (unhold.id IS NULL)
          ELSE hold.id IS NULL AND unhold.id IS NULL END
        UNION ALL
        SELECT 'held account', held.total::text, NULL, NULL
        FROM (SELECT coalesce(sum(amount), 0) AS total FROM ledger_entries WHERE account = ${ACCOUNTS.heldPayments}) held,
          (SELECT coalesce(sum(amount), 0) AS total FROM payments WHERE status = 'HELD') open
        WHERE held.total <> open.total
        LIMIT ${LIMIT}`,
    },
    {
      name: 'bank_transfers_landed',
      description:
        'Every bank transfer that arrived in an account number is in a wallet, on hold or sent back: none is left pending or failed',
      query: sql`SELECT reference, status, amount::text AS amount FROM payments
        WHERE channel = 'bank_transfer' AND status NOT IN ('SUCCESS', 'HELD', 'REFUNDED')
        LIMIT ${LIMIT}`,
    },
    {
      name: 'withdrawals_settled_once',
      description:
        'Each withdrawal reserved amount + fee once, and was paid out or refunded at most once, as its status says',
      query: sql`SELECT w.id AS withdrawal_id, w.status, reserve.id IS NOT NULL AS reserved,
          payout.id IS NOT NULL AS paid, refund.id IS NOT NULL AS refunded, reversal.id IS NOT NULL AS reversed
        FROM withdrawals w
        LEFT JOIN ledger_transactions reserve ON reserve.reference = 'withdrawal:' || w.id
        LEFT JOIN ledger_transactions payout ON payout.reference = 'payout:' || w.id
        LEFT JOIN ledger_transactions refund ON refund.reference = 'withdrawal-refund:' || w.id
        LEFT JOIN ledger_transactions reversal ON reversal.reference = 'payout-reversal:' || w.id
        WHERE reserve.id IS NULL OR NOT CASE
          WHEN w.status IN ('PENDING', 'PROCESSING') THEN payout.id IS NULL AND refund.id IS NULL AND reversal.id IS NULL
          WHEN w.status = 'SUCCESSFUL' THEN payout.id IS NOT NULL AND refund.id IS NULL AND reversal.id IS NULL
          ELSE (refund.id IS NOT NULL AND payout.id IS NULL AND reversal.id IS NULL)
            OR (refund.id IS NULL AND payout.id IS NOT NULL AND reversal.id IS NOT NULL) END
        LIMIT ${LIMIT}`,
    },
    {
      name: 'payout_clearing_matches_open_withdrawals',
      description:
        'Payout clearing holds exactly the amounts of PENDING and PROCESSING withdrawals',
      query: sql`SELECT clearing.total::text AS clearing, open.total::text AS open_withdrawals
        FROM (SELECT coalesce(sum(amount), 0) AS total FROM ledger_entries WHERE account = ${ACCOUNTS.payoutClearing}) clearing,
          (SELECT coalesce(sum(amount), 0) AS total FROM withdrawals WHERE status IN ('PENDING', 'PROCESSING')) open
        WHERE clearing.total <> open.total`,
    },
    {
      name: 'transactions_have_entries',
      description: 'Every transaction has at least two entries',
      query: sql`SELECT t.id AS transaction_id, count(e.id)::int AS entries FROM ledger_transactions t
        LEFT JOIN ledger_entries e ON e.transaction_id = t.id GROUP BY t.id HAVING count(e.id) < 2 LIMIT ${LIMIT}`,
    },
    {
      // The lines carry no foreign keys (a draw's 200,000 prize lines would pay a key check
      // each): what those keys said is checked here, and per transaction at commit.
      name: 'lines_have_their_transaction_and_player',
      description: 'Every entry belongs to a transaction, and every wallet entry to a player',
      query: sql`SELECT e.id AS entry_id, e.transaction_id, e.user_id FROM ledger_entries e
        WHERE NOT EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = e.transaction_id)
          OR (e.user_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = e.user_id))
        LIMIT ${LIMIT}`,
    },
    {
      name: 'winners_are_drawn_entries',
      description:
        "Every winner is an unrefunded entry of a completed game, with that entry's player and time",
      query: sql`SELECT w.game_id, w.entry_id FROM game_winners w
        LEFT JOIN game_entries e ON e.id = w.entry_id
        LEFT JOIN games g ON g.id = w.game_id
        WHERE e.id IS NULL OR e.game_id <> w.game_id OR e.user_id <> w.user_id
          OR e.created_at <> w.created_at OR e.refunded OR g.status IS DISTINCT FROM 'COMPLETED'
        LIMIT ${LIMIT}`,
    },
  ];
  if (!payments.sandbox)
    checks.push({
      name: 'no_unreviewed_sandbox_money_in_live_system',
      description:
        'In a live system no successful sandbox top-up (test money) is left unreviewed by an operator',
      query: sql`SELECT reference, user_id, amount::text AS amount, method FROM payments
        WHERE mode = 'sandbox' AND status = 'SUCCESS' AND sandbox_reviewed_at IS NULL
        ORDER BY created_at LIMIT ${LIMIT}`,
    });
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
