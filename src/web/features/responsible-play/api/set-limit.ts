import type { ResponsiblePlay, SetLimitBody } from '@shared/schemas/responsible-play.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const setLimit = (body: SetLimitBody) =>
  http.put<{ message: string; data: ResponsiblePlay }>('/responsible-play/limits', body);

export function useSetLimit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setLimit,
    onSuccess: (result) =>
      queryClient.setQueryData(['responsible-play', 'overview'] satisfies AppQueryKey, result.data),
  });
}
