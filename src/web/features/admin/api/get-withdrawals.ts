import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { adminKeys } from './keys.ts';
import type { AdminWithdrawalPage, Envelope, WithdrawalStatus } from './types.ts';

/** GET /admin/withdrawals?status&page: pending first (oldest first), 20 a page. */
export const getAdminWithdrawals = (status: WithdrawalStatus | undefined, page: number) =>
  http
    .get<Envelope<AdminWithdrawalPage>>('/admin/withdrawals', { query: { status, page } })
    .then((body) => body.data);

export const adminWithdrawalsQueryOptions = (status: WithdrawalStatus | undefined, page: number) =>
  queryOptions({
    queryKey: adminKeys.withdrawalList(status, page),
    queryFn: () => getAdminWithdrawals(status, page),
  });

export function useAdminWithdrawals(status: WithdrawalStatus | undefined, page: number) {
  return useQuery({
    ...adminWithdrawalsQueryOptions(status, page),
    placeholderData: keepPreviousData,
  });
}

/** How many withdrawals wait for a decision (the badge in the console's menu). */
export function usePendingWithdrawalCount() {
  const query = useQuery({
    ...adminWithdrawalsQueryOptions('PENDING', 1),
    refetchInterval: 60_000,
  });
  return query.data?.pagination.totalResults ?? 0;
}
