import type { AdminPlan } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { adminKeys } from './keys.ts';

/** GET /admin/plans: every plan, active or not, cheapest first. */
export const getAdminPlans = () =>
  http.get<Envelope<AdminPlan[]>>('/admin/plans').then((body) => body.data);

export const adminPlansQueryOptions = queryOptions({
  queryKey: adminKeys.plans,
  queryFn: getAdminPlans,
});

export function useAdminPlans() {
  return useQuery(adminPlansQueryOptions);
}
