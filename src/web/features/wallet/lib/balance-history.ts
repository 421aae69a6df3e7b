import type { BalanceHistory, BalancePoint } from '@shared/schemas/wallet.ts';

/** A posting, or where the balance stood before the first one shown (₦0 unless earlier ones exist). */
export type ChartPoint = BalancePoint | { at: string; balance: number; movement: 'start' };

/** Naira as the API sends them, to the kobo: 0.1 + 0.2 must not draw ₦0.30000000000000004. */
const toKobo = (naira: number) => Math.round(naira * 100);

/**
 * The line the chart draws: where the balance stood before the first posting, then the
 * balance after each one, as the ledger recorded them.
 */
export function chartPoints(history: BalanceHistory): ChartPoint[] {
  const first = history.points[0];
  if (!first) return [];
  const before = (toKobo(first.balance) - toKobo(first.change)) / 100;
  return [{ at: first.at, balance: before, movement: 'start' }, ...history.points];
}
