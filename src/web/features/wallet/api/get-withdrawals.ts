import type { Envelope } from '@shared/schemas/common.ts';
import type { WithdrawalPage } from '@shared/schemas/wallet.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const getWithdrawals = (page: number) =>
  http.get<Envelope<WithdrawalPage>>('/withdrawal', { query: { page } }).then((body) => body.data);

export const withdrawalsQueryOptions = (page = 1) =>
  queryOptions({
    queryKey: ['withdrawals', page] satisfies AppQueryKey,
    queryFn: () => getWithdrawals(page),
    placeholderData: keepPreviousData,
  });

export function useWithdrawals(page = 1) {
  return useQuery(withdrawalsQueryOptions(page));
}
