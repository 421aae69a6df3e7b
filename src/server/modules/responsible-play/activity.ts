import { sql } from 'drizzle-orm';
import { koboToNaira } from '../../../shared/money.ts';
import type {
  RealityCheck,
  Statement,
  StatementMonth,
} from '../../../shared/schemas/responsible-play.ts';
import type { Executor } from '../../db/client.ts';
import { notFound } from '../../errors.ts';

/**
 * What moved a player's wallet, from the ledger (the books every balance is proved against),
 * grouped by what the player would call it. Anything else (plans, operator adjustments) is
 * `other`, so each month's columns add up to what the wallet gained or lost.
 */
const GROUP = sql`CASE
  WHEN t.kind = 'top_up' THEN 'deposits'
  WHEN t.kind IN ('entry_fee', 'refund') THEN 'entryFees'
  WHEN t.kind = 'prize' THEN 'winnings'
  WHEN t.kind IN ('withdrawal', 'withdrawal_refund', 'payout_reversal') THEN 'withdrawals'
  ELSE 'other' END`;

type Group = 'deposits' | 'entryFees' | 'winnings' | 'withdrawals' | 'other';

/** Months (Lagos time) with any wallet movement in the last `months`, newest first. */
export async function monthlyStatement(
  db: Executor,
  userId: string,
  now: Date,
  months = 24,
): Promise<Statement> {
  const since = new Date(now);
  since.setUTCMonth(since.getUTCMonth() - months);
  const result = await db.execute(sql`
    SELECT to_char(e.created_at AT TIME ZONE 'Africa/Lagos', 'YYYY-MM') AS month,
      ${GROUP} AS grp, sum(e.amount)::text AS total
    FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
    WHERE e.account = 'wallet' AND e.user_id = ${userId}
      AND e.created_at >= ${since.toISOString()}::timestamptz
    GROUP BY 1, 2`);
  const rows = (result as unknown as { rows: Array<{ month: string; grp: Group; total: string }> })
    .rows;
  const byMonth = new Map<string, Record<Group, bigint>>();
  for (const row of rows) {
    const totals = byMonth.get(row.month) ?? {
      deposits: 0n,
      entryFees: 0n,
      winnings: 0n,
      withdrawals: 0n,
      other: 0n,
    };
    totals[row.grp] += BigInt(row.total);
    byMonth.set(row.month, totals);
  }
  const list: StatementMonth[] = [...byMonth.entries()]
    .sort(([a], [b]) => (a < b ? 1 : -1))
    .map(([month, t]) => ({
      month,
      // Money out is shown as a positive amount in its own column.
      deposits: koboToNaira(t.deposits),
      entryFees: koboToNaira(-t.entryFees),
      winnings: koboToNaira(t.winnings),
      withdrawals: koboToNaira(-t.withdrawals),
      other: koboToNaira(t.other),
      net: koboToNaira(t.deposits + t.entryFees + t.winnings + t.withdrawals + t.other),
    }));
  return { months: list };
}

/**
 * One CSV field: quoted when it holds a comma, quote or line break (quotes doubled), and text
 * that a spreadsheet would run as a formula (=, +, -, @ first) is prefixed with an apostrophe.
 * Plain numbers (a minus sign included) are left as they are.
 */
export function csvField(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const formula = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value);
  const safe = formula ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const csvLine = (fields: Array<string | number>) => `${fields.map(csvField).join(',')}\r\n`;

const naira = (amount: number) => amount.toFixed(2);

/** The statement as CSV (RFC 4180: CRLF line ends, a header row); amounts in naira. */
export function statementCsv(statement: Statement): string {
  let out = csvLine([
    'Month',
    'Deposits (NGN)',
    'Entry fees (NGN)',
    'Winnings (NGN)',
    'Withdrawals (NGN)',
    'Other (NGN)',
    'Net (NGN)',
  ]);
  for (const m of statement.months) {
    out += csvLine([
      m.month,
      naira(m.deposits),
      naira(m.entryFees),
      naira(m.winnings),
      naira(m.withdrawals),
      naira(m.other),
      naira(m.net),
    ]);
  }
  return out;
}

/**
 * The reality check: how long this sign-in has lasted and what it cost or won, from the
 * session row (opened at sign-in) and the wallet's ledger entries since.
 */
export async function realityCheck(
  db: Executor,
  actor: { id: string; sessionId: string },
  now: Date,
): Promise<RealityCheck> {
  const result = await db.execute(sql`
    SELECT s.created_at, u.reality_check_minutes,
      coalesce((SELECT sum(e.amount) FROM ledger_entries e
        JOIN ledger_transactions t ON t.id = e.transaction_id
        WHERE e.account = 'wallet' AND e.user_id = u.id AND e.created_at >= s.created_at
          AND t.kind IN ('entry_fee', 'refund')), 0)::text AS fees,
      coalesce((SELECT sum(e.amount) FROM ledger_entries e
        JOIN ledger_transactions t ON t.id = e.transaction_id
        WHERE e.account = 'wallet' AND e.user_id = u.id AND e.created_at >= s.created_at
          AND t.kind = 'prize'), 0)::text AS prizes
    FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.id = ${actor.sessionId} AND s.user_id = ${actor.id}`);
  const [row] = (
    result as unknown as {
      rows: Array<{
        created_at: string | Date;
        reality_check_minutes: number | null;
        fees: string;
        prizes: string;
      }>;
    }
  ).rows;
  if (!row) throw notFound('Session not found');
  const started = new Date(row.created_at);
  const spent = -BigInt(row.fees);
  const won = BigInt(row.prizes);
  return {
    intervalMinutes: row.reality_check_minutes,
    sessionStartedAt: started.toISOString(),
    minutesPlayed: Math.max(0, Math.floor((now.getTime() - started.getTime()) / 60_000)),
    spent: koboToNaira(spent),
    won: koboToNaira(won),
    net: koboToNaira(won - spent),
  };
}
