import type { Payment, Withdrawal } from '@shared/schemas/wallet.ts';
import { statusTone } from '@shared/status.ts';

export interface BalanceEvent {
  at: number;
  /** Naira the wallet gained (top-up) or lost (withdrawal with its fee). */
  delta: number;
  kind: 'topup' | 'withdrawal';
}

export interface BalancePoint {
  at: number;
  balance: number;
  kind: BalanceEvent['kind'] | 'start' | 'now';
}

/**
 * The wallet movements these two histories prove: a successful top-up adds its amount; a
 * withdrawal takes amount + fee when requested, and a failed or rejected one gave both back,
 * so it nets to nothing. Pending top-ups have not moved money yet.
 */
export function balanceEvents(payments: Payment[], withdrawals: Withdrawal[]): BalanceEvent[] {
  const events: BalanceEvent[] = [];
  for (const payment of payments) {
    if (statusTone(payment.status) === 'success')
      events.push({ at: Date.parse(payment.createdAt), delta: payment.amount, kind: 'topup' });
  }
  for (const withdrawal of withdrawals) {
    if (statusTone(withdrawal.status) !== 'danger') {
      events.push({
        at: Date.parse(withdrawal.createdAt),
        delta: -(withdrawal.amount + withdrawal.fee),
        kind: 'withdrawal',
      });
    }
  }
  return events.filter((event) => Number.isFinite(event.at)).sort((a, b) => a.at - b.at);
}

/**
 * Balance over time from the movements these histories prove, drawn forward: each top-up
 * raises the line by exactly the amount credited (a ₦2,500 top-up is a ₦2,500 step) and each
 * withdrawal lowers it by amount + fee. Game entries and prizes are not in these histories, so
 * they show as the last step, to the balance the server reports now, rather than silently
 * shifting every earlier point. The start is what the known movements
 * leave unexplained, never below zero, as no real balance can be.
 */
export function balanceHistory(
  currentBalance: number,
  payments: Payment[],
  withdrawals: Withdrawal[],
  now: number = Date.now(),
): BalancePoint[] {
  const events = balanceEvents(payments, withdrawals);
  const first = events[0];
  if (!first) return [];
  const moved = events.reduce((sum, event) => sum + event.delta, 0);
  let balance = Math.max(0, currentBalance - moved);
  const points: BalancePoint[] = [{ at: first.at, balance, kind: 'start' }];
  for (const event of events) {
    balance = Math.max(0, balance + event.delta);
    points.push({ at: event.at, balance, kind: event.kind });
  }
  points.push({ at: now, balance: currentBalance, kind: 'now' });
  return points;
}
