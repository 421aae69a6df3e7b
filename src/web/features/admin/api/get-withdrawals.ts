import type { WithdrawalStatus } from '@shared/constants.ts';
import type { AdminWithdrawalPage } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** Which withdrawals the queue shows; `reference` (empty: any) is one a player read out. */
export interface WithdrawalFilter {
  status: WithdrawalStatus | undefined;
  held: boolean;
  reference: string;
}

/**
 * GET /admin/withdrawals?status&held&reference&page: pending first (oldest first), 20 a page;
 * `held` keeps only those the anti-money-laundering rules held for review, `reference` the one
 * withdrawal it names.
 */
export const getAdminWithdrawals = ({ status, held, reference }: WithdrawalFilter, page: number) =>
  http
    .get<Envelope<AdminWithdrawalPage>>('/admin/withdrawals', {
      query: { status, held: held ? 'true' : undefined, reference: reference || undefined, page },
    })
    .then((body) => body.data);

export const adminWithdrawalsQueryOptions = (filter: WithdrawalFilter, page: number) =>
  queryOptions({
    queryKey: ['admin', 'withdrawals', { ...filter, page }] satisfies AppQueryKey,
    queryFn: () => getAdminWithdrawals(filter, page),
  });

export function useAdminWithdrawals(filter: WithdrawalFilter, page: number) {
  return useQuery({
    ...adminWithdrawalsQueryOptions(filter, page),
    placeholderData: keepPreviousData,
  });
}

/** How many withdrawals wait for a decision (the badge in the console's menu). */
export function usePendingWithdrawalCount() {
  const query = useQuery({
    ...adminWithdrawalsQueryOptions({ status: 'PENDING', held: false, reference: '' }, 1),
    refetchInterval: 60_000,
  });
  return query.data?.pagination.totalResults ?? 0;
}
