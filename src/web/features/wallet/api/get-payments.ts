import type { Envelope } from '@shared/schemas/common.ts';
import type { PaymentPage } from '@shared/schemas/wallet.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const getPayments = (page: number) =>
  http.get<Envelope<PaymentPage>>('/payment', { query: { page } }).then((body) => body.data);

export const paymentsQueryOptions = (page = 1) =>
  queryOptions({
    queryKey: ['payments', page] satisfies AppQueryKey,
    queryFn: () => getPayments(page),
    // Keep the current page on screen while the next one loads: no jump on slow networks.
    placeholderData: keepPreviousData,
  });

/**
 * A checkout finishes in another tab, so coming back to this one always refreshes the history,
 * however fresh it looked (the app turns focus refetching off by default).
 */
export function usePayments(page = 1) {
  return useQuery({ ...paymentsQueryOptions(page), refetchOnWindowFocus: 'always' });
}
