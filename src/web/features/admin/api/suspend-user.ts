import type { MessageBody } from '@shared/schemas/common.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** POST /admin/users/:id/suspend {reason}: the player's tokens stop working. */
export const suspendUser = ({ id, reason }: { id: string; reason: string }) =>
  http.post<MessageBody>(`/admin/users/${encodeURIComponent(id)}/suspend`, { reason });

/** POST /admin/users/:id/unsuspend. */
export const unsuspendUser = (id: string) =>
  http.post<MessageBody>(`/admin/users/${encodeURIComponent(id)}/unsuspend`, {});

export function useSuspendUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: suspendUser,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: ['admin', 'users'] satisfies AppQueryKey }),
  });
}

export function useUnsuspendUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unsuspendUser,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: ['admin', 'users'] satisfies AppQueryKey }),
  });
}
