import type { RealityCheck } from '@shared/schemas/responsible-play.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { responsiblePlayKeys } from './keys.ts';

export const getRealityCheck = () =>
  http.get<{ data: RealityCheck }>('/responsible-play/reality-check').then((body) => body.data);

export const realityCheckQueryOptions = () =>
  queryOptions({ queryKey: responsiblePlayKeys.realityCheck(), queryFn: getRealityCheck });

export function useRealityCheck() {
  return useQuery(realityCheckQueryOptions());
}
