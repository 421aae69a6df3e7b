import type { FairnessLogPage } from '@shared/schemas/fairness.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';

/** GET /fairness/log?from=&limit=: one page of the public, hash-chained fairness log. */
export const getFairnessLog = (from: number, limit?: number) =>
  http
    .get<{ data: FairnessLogPage }>('/fairness/log', {
      query: { from, limit },
    })
    .then((body) => body.data);

/** The head (latest position and hash): one record is enough to learn it. */
export const fairnessHeadQueryOptions = () =>
  queryOptions({
    queryKey: ['fairness', 'head'],
    queryFn: () => getFairnessLog(1, 1).then((page) => page.head),
  });

export function useFairnessHead() {
  return useQuery(fairnessHeadQueryOptions());
}
