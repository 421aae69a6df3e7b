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
 * Balance over time, anchored on the balance the server reports now and walked back through
 * the known movements. Game entries and prizes are not in these histories, so the earlier
 * points are an estimate; they never go below zero, as no real balance can.
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
  const points: BalancePoint[] = [{ at: now, balance: currentBalance, kind: 'now' }];
  let after = currentBalance;
  for (let index = events.length - 1; index >= 0; index -= 1) {
    const event = events[index] as BalanceEvent;
    points.push({ at: event.at, balance: Math.max(0, after), kind: event.kind });
    after -= event.delta;
  }
  points.push({ at: first.at, balance: Math.max(0, after), kind: 'start' });
  return points.reverse();
}
