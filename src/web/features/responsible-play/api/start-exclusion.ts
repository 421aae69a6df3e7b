import type { PlayExclusion, StartExclusionBody } from '@shared/schemas/responsible-play.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const startExclusion = (body: StartExclusionBody) =>
  http.post<{ message: string; data: PlayExclusion }>('/responsible-play/exclusion', body);

export function useStartExclusion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startExclusion,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: ['responsible-play'] satisfies AppQueryKey }),
  });
}
