import type { RealityCheck } from '@shared/schemas/responsible-play.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const getRealityCheck = () =>
  http.get<{ data: RealityCheck }>('/responsible-play/reality-check').then((body) => body.data);

export const realityCheckQueryOptions = () =>
  queryOptions({
    queryKey: ['responsible-play', 'reality-check'] satisfies AppQueryKey,
    queryFn: getRealityCheck,
  });

export function useRealityCheck() {
  return useQuery(realityCheckQueryOptions());
}
