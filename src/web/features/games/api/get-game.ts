import type { Game } from '@shared/schemas/games.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /game/:id: one game, so a shared /GameDetails?id= link opens without the list. */
export const getGame = (id: string) =>
  http.get<{ data: Game }>(`/game/${encodeURIComponent(id)}`).then((body) => body.data);

export const gameQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['games', 'detail', id] satisfies AppQueryKey,
    queryFn: () => getGame(id),
  });

/** `shown` is the game the player pressed Pluck in on: shown at once while a fresh copy loads. */
export function useGame(id: string | null, shown: Game | null) {
  return useQuery({
    ...gameQueryOptions(id ?? ''),
    enabled: Boolean(id),
    placeholderData: shown && shown.id === id ? shown : undefined,
  });
}
