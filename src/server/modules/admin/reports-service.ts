import { sql } from 'drizzle-orm';
import { holdReasonText } from '../../../shared/aml.ts';
import { DAY_MS, lagosDayStart, lagosMidnight } from '../../../shared/date.ts';
import { koboToNaira } from '../../../shared/money.ts';
import type { Report } from '../../../shared/schemas/admin.ts';
import type { Database } from '../../db/client.ts';
import type { PaymentProviders } from '../../providers/payments/index.ts';
import { ACCOUNTS } from '../wallet/ledger.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

/** The payment behind a top-up (its ledger reference is `topup:<method>:<payment reference>`), for its mode. */
const TOP_UP_PAYMENT = sql`LEFT JOIN payments p ON t.kind = 'top_up' AND p.reference = split_part(t.reference, ':', 3)`;

/** Withdrawals requested in the window that were held for review, per reason (src/shared/aml.ts). */
export async function holdSummary(db: Database, from: Date, to: Date) {
  const result = await db.execute(sql`
    SELECT r.code,
      count(*)::int AS withdrawals,
      coalesce(sum(w.amount), 0)::bigint AS amount,
      (count(*) FILTER (WHERE w.status = 'PENDING'))::int AS pending
    FROM withdrawals w CROSS JOIN LATERAL jsonb_array_elements_text(w.hold_reasons) AS r(code)
    WHERE w.created_at >= ${from.toISOString()}::timestamptz AND w.created_at < ${to.toISOString()}::timestamptz
    GROUP BY r.code ORDER BY count(*) DESC, r.code`);
  const { rows } = result as unknown as {
    rows: Array<{ code: string; withdrawals: number; amount: string | bigint; pending: number }>;
  };
  return rows.map((row) => ({
    code: row.code,
    text: holdReasonText(row.code),
    withdrawals: Number(row.withdrawals),
    amount: koboToNaira(BigInt(row.amount)),
    pending: Number(row.pending),
  }));
}

/** Money movements per platform account over a window, read straight from the ledger. */
export async function reportTotals(db: Database, from: Date, to: Date) {
  const result = await db.execute(sql`
    SELECT
      coalesce(sum(CASE WHEN e.account::text LIKE 'clearing:payments:%' AND t.kind = 'top_up' AND p.mode IS DISTINCT FROM 'sandbox' THEN -e.amount END), 0)::bigint AS deposits,
      coalesce(sum(CASE WHEN e.account::text LIKE 'clearing:payments:%' AND t.kind = 'top_up' AND p.mode = 'sandbox' THEN -e.amount END), 0)::bigint AS sandbox_deposits,
      coalesce(sum(CASE WHEN e.account = ${ACCOUNTS.entryFees} AND t.kind = 'entry_fee' THEN e.amount END), 0)::bigint AS entry_fees,
      coalesce(sum(CASE WHEN e.account = ${ACCOUNTS.entryFees} AND t.kind = 'refund' THEN -e.amount END), 0)::bigint AS refunds,
      coalesce(sum(CASE WHEN e.account = ${ACCOUNTS.prizeExpense} THEN -e.amount END), 0)::bigint AS prizes,
      coalesce(sum(CASE WHEN e.account = ${ACCOUNTS.planRevenue} THEN e.amount END), 0)::bigint AS plans,
      coalesce(sum(CASE WHEN e.account = ${ACCOUNTS.withdrawalFees} THEN e.amount END), 0)::bigint AS withdrawal_fees,
      coalesce(sum(CASE WHEN e.account = ${ACCOUNTS.bankPayouts} THEN e.amount END), 0)::bigint AS paid_out,
      coalesce(sum(CASE WHEN e.account = ${ACCOUNTS.adjustments} THEN -e.amount END), 0)::bigint AS adjustments
    FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
    ${TOP_UP_PAYMENT}
    WHERE e.created_at >= ${from.toISOString()}::timestamptz AND e.created_at < ${to.toISOString()}::timestamptz`);
  const row =
    (result as unknown as { rows: Array<Record<string, string | number | bigint>> }).rows[0] ?? {};
  const kobo = (key: string) => BigInt(row[key] ?? 0);
  const entryFees = kobo('entry_fees') - kobo('refunds');
  const margin =
    entryFees + kobo('plans') + kobo('withdrawal_fees') - kobo('prizes') - kobo('adjustments');
  return {
    deposits: koboToNaira(kobo('deposits')),
    sandboxDeposits: koboToNaira(kobo('sandbox_deposits')),
    entryFees: koboToNaira(entryFees),
    prizesPaid: koboToNaira(kobo('prizes')),
    refunds: koboToNaira(kobo('refunds')),
    planRevenue: koboToNaira(kobo('plans')),
    withdrawalFees: koboToNaira(kobo('withdrawal_fees')),
    withdrawalsPaid: koboToNaira(kobo('paid_out')),
    adjustments: koboToNaira(kobo('adjustments')),
    houseMargin: koboToNaira(margin),
  };
}

/** The last 30 Lagos calendar days, today (so far) included. Lagos keeps UTC+1 all year. */
async function dailySeries(db: Database, now: Date) {
  const today = lagosDayStart(now).toISOString();
  const result = await db.execute(sql`
    WITH days AS (
      SELECT n, ${today}::timestamptz - make_interval(days => 29 - n) AS starts
      FROM generate_series(0, 29) AS n
    )
    SELECT to_char(d.starts AT TIME ZONE 'Africa/Lagos', 'YYYY-MM-DD') AS day,
      coalesce(sum(CASE WHEN e.account::text LIKE 'clearing:payments:%' AND t.kind = 'top_up' AND p.mode IS DISTINCT FROM 'sandbox' THEN -e.amount END), 0)::bigint AS deposits,
      coalesce(sum(CASE WHEN e.account::text LIKE 'clearing:payments:%' AND t.kind = 'top_up' AND p.mode = 'sandbox' THEN -e.amount END), 0)::bigint AS sandbox_deposits,
      coalesce(sum(CASE WHEN e.account = ${ACCOUNTS.prizeExpense} THEN -e.amount END), 0)::bigint AS prizes,
      coalesce(sum(CASE WHEN e.account IN (${ACCOUNTS.entryFees}, ${ACCOUNTS.planRevenue}, ${ACCOUNTS.withdrawalFees}) THEN e.amount
                        WHEN e.account IN (${ACCOUNTS.prizeExpense}, ${ACCOUNTS.adjustments}) THEN e.amount END), 0)::bigint AS margin
    FROM days d
    LEFT JOIN ledger_entries e ON e.created_at >= d.starts AND e.created_at < d.starts + interval '1 day'
    LEFT JOIN ledger_transactions t ON t.id = e.transaction_id
    ${TOP_UP_PAYMENT}
    GROUP BY d.n, d.starts ORDER BY d.n`);
  return (
    result as unknown as {
      rows: Array<{
        day: string;
        deposits: string;
        sandbox_deposits: string;
        prizes: string;
        margin: string;
      }>;
    }
  ).rows.map((row) => ({
    day: row.day,
    deposits: koboToNaira(BigInt(row.deposits)),
    sandboxDeposits: koboToNaira(BigInt(row.sandbox_deposits)),
    prizes: koboToNaira(BigInt(row.prizes)),
    margin: koboToNaira(BigInt(row.margin)),
  }));
}

/**
 * Totals and held withdrawals for a range of Lagos days (by default the last 30 days up to
 * now), the daily series of the last 30 days and the ledger check.
 */
export async function buildReport(
  db: Database,
  providers: PaymentProviders,
  range: { from?: string; to?: string },
  now: Date,
): Promise<Report> {
  const from = range.from ? lagosMidnight(range.from) : new Date(now.getTime() - 30 * DAY_MS);
  const to = range.to ? new Date(lagosMidnight(range.to).getTime() + DAY_MS) : now;
  const [totals, daily, ledger, holds] = await Promise.all([
    reportTotals(db, from, to),
    dailySeries(db, now),
    checkLedger(db, providers),
    holdSummary(db, from, to),
  ]);
  return { from: from.toISOString(), to: to.toISOString(), totals, daily, ledger, holds };
}
