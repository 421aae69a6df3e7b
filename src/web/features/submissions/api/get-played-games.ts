import type { PlayedGame } from '@shared/schemas/games.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** docs/product.md#the-api: GET /game/played → data array of played games. */
export const getPlayedGames = () =>
  http.get<{ data?: PlayedGame[] }>('/game/played').then((body) => body?.data ?? []);

/** Under the 'games' prefix, so playing a game refreshes it too. */
export const playedGamesQueryOptions = () =>
  queryOptions({ queryKey: ['games', 'played'] satisfies AppQueryKey, queryFn: getPlayedGames });

export function usePlayedGames() {
  return useQuery(playedGamesQueryOptions());
}
