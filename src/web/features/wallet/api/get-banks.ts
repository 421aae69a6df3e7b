import type { Bank } from '@shared/schemas/catalogue.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const getBanks = () => http.get<{ data: Bank[] }>('/bank').then((body) => body.data);

/** The list of banks hardly ever changes: load it once per visit. */
export const banksQueryOptions = () =>
  queryOptions({
    queryKey: ['banks'] satisfies AppQueryKey,
    queryFn: getBanks,
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useBanks() {
  return useQuery(banksQueryOptions());
}
