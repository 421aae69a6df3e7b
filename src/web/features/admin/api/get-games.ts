import type { AdminGameFilters, AdminGamePage } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /admin/games: every game, newest first, 20 a page. */
export const getAdminGames = (filters: AdminGameFilters) =>
  http
    .get<Envelope<AdminGamePage>>('/admin/games', { query: { ...filters } })
    .then((body) => body.data);

export const adminGamesQueryOptions = (filters: AdminGameFilters) =>
  queryOptions({
    queryKey: ['admin', 'games', 'list', filters] satisfies AppQueryKey,
    queryFn: () => getAdminGames(filters),
  });

export function useAdminGames(filters: AdminGameFilters) {
  return useQuery({ ...adminGamesQueryOptions(filters), placeholderData: keepPreviousData });
}
