import type { GameType } from '@shared/constants.ts';
import type { Game } from '@shared/schemas/games.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';

/** Spec §7: GET /game?gameType=…; a missing data.games means an empty list. */
export const getGames = (gameType: GameType) =>
  http
    .get<{ data?: { games?: Game[] } }>('/game', { query: { gameType } })
    .then((body) => body?.data?.games ?? []);

export const gamesQueryOptions = (gameType: GameType) =>
  queryOptions({
    queryKey: ['games', 'list', gameType],
    queryFn: () => getGames(gameType),
  });

export function useGames(gameType: GameType) {
  return useQuery(gamesQueryOptions(gameType));
}
