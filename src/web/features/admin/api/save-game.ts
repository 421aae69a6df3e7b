import type { AdminGameBody } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import type { Game } from '@shared/schemas/games.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** POST /admin/games (no id) or PUT /admin/games/:id (409 once someone has played). */
export const saveGame = ({ id, body }: { id?: string; body: AdminGameBody }) =>
  id
    ? http.put<Envelope<Game>>(`/admin/games/${encodeURIComponent(id)}`, body)
    : http.post<Envelope<Game>>('/admin/games', body);

export function useSaveGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveGame,
    onSuccess: (result) => {
      queryClient.setQueryData(
        ['admin', 'games', 'detail', result.data.id] satisfies AppQueryKey,
        result.data,
      );
      // Players' lists show the game too.
      void queryClient.invalidateQueries({ queryKey: ['games'] satisfies AppQueryKey });
    },
    // Also after a refusal (409: someone played meanwhile), so the page shows the game as it is.
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: ['admin', 'games'] satisfies AppQueryKey }),
  });
}
