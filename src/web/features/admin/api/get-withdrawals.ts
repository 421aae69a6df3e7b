import type { WithdrawalStatus } from '@shared/constants.ts';
import type { AdminWithdrawalPage } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/**
 * GET /admin/withdrawals?status&held&page: pending first (oldest first), 20 a page; `held`
 * keeps only those the anti-money-laundering rules held for review.
 */
export const getAdminWithdrawals = (
  status: WithdrawalStatus | undefined,
  held: boolean,
  page: number,
) =>
  http
    .get<Envelope<AdminWithdrawalPage>>('/admin/withdrawals', {
      query: { status, held: held ? 'true' : undefined, page },
    })
    .then((body) => body.data);

export const adminWithdrawalsQueryOptions = (
  status: WithdrawalStatus | undefined,
  held: boolean,
  page: number,
) =>
  queryOptions({
    queryKey: ['admin', 'withdrawals', { status, held, page }] satisfies AppQueryKey,
    queryFn: () => getAdminWithdrawals(status, held, page),
  });

export function useAdminWithdrawals(
  status: WithdrawalStatus | undefined,
  held: boolean,
  page: number,
) {
  return useQuery({
    ...adminWithdrawalsQueryOptions(status, held, page),
    placeholderData: keepPreviousData,
  });
}

/** How many withdrawals wait for a decision (the badge in the console's menu). */
export function usePendingWithdrawalCount() {
  const query = useQuery({
    ...adminWithdrawalsQueryOptions('PENDING', false, 1),
    refetchInterval: 60_000,
  });
  return query.data?.pagination.totalResults ?? 0;
}
