import type { Envelope } from '@shared/schemas/common.ts';
import type { Game } from '@shared/schemas/games.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /game/:id: one game, whatever its status. */
export const getGame = (id: string) =>
  http.get<Envelope<Game>>(`/game/${encodeURIComponent(id)}`).then((body) => body.data);

export const gameQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'games', 'detail', id] satisfies AppQueryKey,
    queryFn: () => getGame(id),
  });

/** While a game is closed its draw is about to run: look again every few seconds. */
export function useAdminGame(id: string) {
  return useQuery({
    ...gameQueryOptions(id),
    refetchInterval: (query) => (query.state.data?.status === 'CLOSED' ? 4000 : false),
  });
}
