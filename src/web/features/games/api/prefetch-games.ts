import type { GameType } from '@shared/constants.ts';
import type { Game } from '@shared/schemas/games.ts';
import { http } from '@web/lib/http.ts';
import { prefetch, takeArrived, takePrefetched } from '@web/lib/prefetch.ts';

/*
 * The game-list request without TanStack Query, so the entry can start it (App's route table)
 * without loading the signed-in shell first.
 */

/** docs/product.md#the-api: GET /game?gameType=…; a missing data.games means an empty list. */
export const getGames = (gameType: GameType) =>
  http
    .get<{ data?: { games?: Game[] } }>('/game', { query: { gameType } })
    .then((body) => body?.data?.games ?? []);

const key = (gameType: GameType) => `games:${gameType}`;

/** Starts loading a list a screen is about to show (Home's first tab, on a cold start). */
export function prefetchGames(gameType: GameType): void {
  prefetch(key(gameType), () => getGames(gameType));
}

/** The list, from a request already under way when there is a fresh one. */
export function loadGames(gameType: GameType): Promise<Game[]> {
  return takePrefetched(key(gameType), () => getGames(gameType));
}

/** The list if a prefetch of it has already come back, for the first render. */
export function arrivedGames(gameType: GameType): Game[] | undefined {
  return takeArrived(key(gameType));
}
