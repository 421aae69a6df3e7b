import type { AdminUserDetail } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /admin/users/:id: profile, wallet ledger, plays, payments and withdrawals. */
export const getAdminUser = (id: string) =>
  http
    .get<Envelope<AdminUserDetail>>(`/admin/users/${encodeURIComponent(id)}`)
    .then((body) => body.data);

export const adminUserQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'users', 'detail', id] satisfies AppQueryKey,
    queryFn: () => getAdminUser(id),
  });

export function useAdminUser(id: string) {
  return useQuery(adminUserQueryOptions(id));
}
