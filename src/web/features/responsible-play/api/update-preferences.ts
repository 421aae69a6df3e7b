import type { PreferencesBody, ResponsiblePlay } from '@shared/schemas/responsible-play.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const updatePreferences = (body: PreferencesBody) =>
  http.put<{ message: string; data: ResponsiblePlay }>('/responsible-play/preferences', body);

export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePreferences,
    onSuccess: (result) => {
      queryClient.setQueryData(['responsible-play', 'overview'] satisfies AppQueryKey, result.data);
      // The reminder reschedules from the new interval.
      void queryClient.invalidateQueries({
        queryKey: ['responsible-play', 'reality-check'] satisfies AppQueryKey,
      });
    },
  });
}
