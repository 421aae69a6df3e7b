import type { AdminUserPage } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /admin/users?q&page: search by name, e-mail, phone or username; 20 a page. */
export const getAdminUsers = (q: string, page: number) =>
  http
    .get<Envelope<AdminUserPage>>('/admin/users', { query: { q, page } })
    .then((body) => body.data);

export const adminUsersQueryOptions = (q: string, page: number) =>
  queryOptions({
    queryKey: ['admin', 'users', 'list', { q, page }] satisfies AppQueryKey,
    queryFn: () => getAdminUsers(q, page),
  });

export function useAdminUsers(q: string, page: number) {
  return useQuery({ ...adminUsersQueryOptions(q, page), placeholderData: keepPreviousData });
}
