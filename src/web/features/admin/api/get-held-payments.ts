import type { HeldPaymentList } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /admin/held-payments: top-ups that landed past a deposit limit, those on hold first. */
export const getHeldPayments = () =>
  http.get<Envelope<HeldPaymentList>>('/admin/held-payments').then((body) => body.data);

export const heldPaymentsQueryOptions = queryOptions({
  queryKey: ['admin', 'held-payments'] satisfies AppQueryKey,
  queryFn: getHeldPayments,
  staleTime: 0,
});

export function useHeldPayments() {
  return useQuery(heldPaymentsQueryOptions);
}
