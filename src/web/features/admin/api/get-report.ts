import type { Report } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /admin/reports?from&to: totals for the range, the last 30 days, the ledger check. */
export const getReport = (range: { from: string; to: string }) =>
  http.get<Envelope<Report>>('/admin/reports', { query: range }).then((body) => body.data);

export const reportQueryOptions = (range: { from: string; to: string }) =>
  queryOptions({
    queryKey: ['admin', 'report', range] satisfies AppQueryKey,
    queryFn: () => getReport(range),
    staleTime: 0,
  });

export function useReport(range: { from: string; to: string }) {
  return useQuery({ ...reportQueryOptions(range), placeholderData: (previous) => previous });
}
