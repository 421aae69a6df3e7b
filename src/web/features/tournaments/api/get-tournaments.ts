import type { Game } from '@shared/schemas/games.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /game?gameType=TOURNAMENT: upcoming and ongoing tournaments (docs/product.md#games-and-draws). */
export const getTournaments = () =>
  http
    .get<{ data?: { games?: Game[] } }>('/game', { query: { gameType: 'TOURNAMENT' } })
    .then((body) => body?.data?.games ?? []);

/** The key the game lists use, so playing a game refreshes this list as well. */
export const tournamentsQueryOptions = () =>
  queryOptions({
    queryKey: ['games', 'list', 'TOURNAMENT'] satisfies AppQueryKey,
    queryFn: getTournaments,
  });

export function useTournaments(enabled = true) {
  return useQuery({ ...tournamentsQueryOptions(), enabled });
}
