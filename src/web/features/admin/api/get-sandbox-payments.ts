import type { SandboxPaymentList } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /admin/sandbox-payments: successful sandbox top-ups, unreviewed first. */
export const getSandboxPayments = () =>
  http.get<Envelope<SandboxPaymentList>>('/admin/sandbox-payments').then((body) => body.data);

export const sandboxPaymentsQueryOptions = queryOptions({
  queryKey: ['admin', 'sandbox-payments'] satisfies AppQueryKey,
  queryFn: getSandboxPayments,
  staleTime: 0,
});

export function useSandboxPayments() {
  return useQuery(sandboxPaymentsQueryOptions);
}
