import type { GameType } from '@shared/constants.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useHydrated } from '@web/lib/hydrated.tsx';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import { arrivedGames, loadGames } from './prefetch-games.ts';

/** docs/product.md#the-api: the list of one game type (taken from Home's prefetch on a cold start). */
export const gamesQueryOptions = (gameType: GameType) =>
  queryOptions({
    queryKey: ['games', 'list', gameType] satisfies AppQueryKey,
    queryFn: () => loadGames(gameType),
  });

export function useGames(gameType: GameType) {
  const hydrated = useHydrated();
  return useQuery({
    ...gamesQueryOptions(gameType),
    // A cold start's prefetch that is already back shows with the first render, no spinner
    // (after hydration: the prerendered shell has the loading state).
    initialData: hydrated ? () => arrivedGames(gameType) : undefined,
  });
}
