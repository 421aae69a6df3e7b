import type { Envelope } from '@shared/schemas/common.ts';
import type { BalanceHistory } from '@shared/schemas/wallet.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const getBalanceHistory = () =>
  http.get<Envelope<BalanceHistory>>('/wallet/balance-history').then((body) => body.data);

/**
 * Keyed by the balance the session shows: whatever moved the wallet (a withdrawal here, a
 * prize seen when the user is read again), the chart asks again, and the line ends where the
 * balance card does. The previous line stays on screen meanwhile.
 */
export const balanceHistoryQueryOptions = (balance: number) =>
  queryOptions({
    queryKey: ['wallet', 'balance-history', balance] satisfies AppQueryKey,
    queryFn: getBalanceHistory,
    placeholderData: keepPreviousData,
  });

export function useBalanceHistory(balance: number) {
  return useQuery(balanceHistoryQueryOptions(balance));
}
