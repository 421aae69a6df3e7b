import type { MessageBody } from '@shared/schemas/common.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** POST /admin/games/:id/cancel {reason}: every entry fee is refunded. */
export const cancelGame = ({ id, reason }: { id: string; reason: string }) =>
  http.post<MessageBody>(`/admin/games/${encodeURIComponent(id)}/cancel`, { reason });

export function useCancelGame() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelGame,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'games'] satisfies AppQueryKey });
      void queryClient.invalidateQueries({ queryKey: ['games'] satisfies AppQueryKey });
    },
  });
}
