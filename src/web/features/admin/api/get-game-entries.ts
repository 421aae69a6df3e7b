import type { AdminEntry } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /admin/games/:id/entries: every answer, oldest first. */
export const getGameEntries = (id: string) =>
  http
    .get<Envelope<AdminEntry[]>>(`/admin/games/${encodeURIComponent(id)}/entries`)
    .then((body) => body.data);

export const gameEntriesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'games', 'entries', id] satisfies AppQueryKey,
    queryFn: () => getGameEntries(id),
  });

export function useGameEntries(id: string) {
  return useQuery(gameEntriesQueryOptions(id));
}
