import type { ResponsiblePlay, SetLimitBody } from '@shared/schemas/responsible-play.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { responsiblePlayKeys } from './keys.ts';

export const setLimit = (body: SetLimitBody) =>
  http.put<{ message: string; data: ResponsiblePlay }>('/responsible-play/limits', body);

export function useSetLimit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setLimit,
    onSuccess: (result) => queryClient.setQueryData(responsiblePlayKeys.overview(), result.data),
  });
}
