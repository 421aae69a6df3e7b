import type { MessageBody } from '@shared/schemas/common.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** POST /admin/games/:id/close: no more answers; the draw is queued. */
export const closeGame = (id: string) =>
  http.post<MessageBody>(`/admin/games/${encodeURIComponent(id)}/close`);

export function useCloseGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeGame,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'games'] satisfies AppQueryKey });
      void queryClient.invalidateQueries({ queryKey: ['games'] satisfies AppQueryKey });
    },
  });
}
