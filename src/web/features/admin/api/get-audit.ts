import type { AuditPage } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /admin/audit?page: every operator action, newest first, 25 a page. */
export const getAudit = (page: number) =>
  http.get<Envelope<AuditPage>>('/admin/audit', { query: { page } }).then((body) => body.data);

export const auditQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ['admin', 'audit', page] satisfies AppQueryKey,
    queryFn: () => getAudit(page),
    staleTime: 0,
  });

export function useAudit(page: number) {
  return useQuery({ ...auditQueryOptions(page), placeholderData: keepPreviousData });
}
