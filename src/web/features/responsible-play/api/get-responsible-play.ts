import type { ResponsiblePlay } from '@shared/schemas/responsible-play.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const getResponsiblePlay = () =>
  http.get<{ data: ResponsiblePlay }>('/responsible-play').then((body) => body.data);

export const responsiblePlayQueryOptions = () =>
  queryOptions({
    queryKey: ['responsible-play', 'overview'] satisfies AppQueryKey,
    queryFn: getResponsiblePlay,
  });

export function useResponsiblePlay() {
  return useQuery(responsiblePlayQueryOptions());
}
