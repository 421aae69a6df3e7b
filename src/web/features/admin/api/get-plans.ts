import type { AdminPlan } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /admin/plans: every plan, active or not, cheapest first. */
export const getAdminPlans = () =>
  http.get<Envelope<AdminPlan[]>>('/admin/plans').then((body) => body.data);

export const adminPlansQueryOptions = queryOptions({
  queryKey: ['admin', 'plans'] satisfies AppQueryKey,
  queryFn: getAdminPlans,
});

export function useAdminPlans() {
  return useQuery(adminPlansQueryOptions);
}
