import { koboToNaira, nairaToKobo } from '@shared/money.ts';
import type { BalanceHistory, BalancePoint } from '@shared/schemas/wallet.ts';

/** A posting, or where the balance stood before the first one shown (₦0 unless earlier ones exist). */
export type ChartPoint = BalancePoint | { at: string; balance: number; movement: 'start' };

/**
 * The line the chart draws: where the balance stood before the first posting, then the
 * balance after each one, as the ledger recorded them.
 */
export function chartPoints(history: BalanceHistory): ChartPoint[] {
  const first = history.points[0];
  if (!first) return [];
  // Subtracted in kobo: 0.3 - 0.1 in naira would draw ₦0.19999999999999998.
  const before = koboToNaira(nairaToKobo(first.balance) - nairaToKobo(first.change));
  return [{ at: first.at, balance: before, movement: 'start' }, ...history.points];
}
