import type { ResponsiblePlay } from '@shared/schemas/responsible-play.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { responsiblePlayKeys } from './keys.ts';

export const getResponsiblePlay = () =>
  http.get<{ data: ResponsiblePlay }>('/responsible-play').then((body) => body.data);

export const responsiblePlayQueryOptions = () =>
  queryOptions({ queryKey: responsiblePlayKeys.overview(), queryFn: getResponsiblePlay });

export function useResponsiblePlay() {
  return useQuery(responsiblePlayQueryOptions());
}
