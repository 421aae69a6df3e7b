import type { Plan } from '@shared/schemas/plans.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const getPlans = () => http.get<{ data: Plan[] }>('/plan').then((body) => body.data);

/** docs/product.md#the-api: the plan list is cached after the first load. */
export const plansQueryOptions = queryOptions({
  queryKey: ['plans'] satisfies AppQueryKey,
  queryFn: getPlans,
  staleTime: Number.POSITIVE_INFINITY,
});

export function usePlans() {
  return useQuery(plansQueryOptions);
}
