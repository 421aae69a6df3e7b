import type { PreferencesBody, ResponsiblePlay } from '@shared/schemas/responsible-play.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { responsiblePlayKeys } from './keys.ts';

export const updatePreferences = (body: PreferencesBody) =>
  http.put<{ message: string; data: ResponsiblePlay }>('/responsible-play/preferences', body);

export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePreferences,
    onSuccess: (result) => {
      queryClient.setQueryData(responsiblePlayKeys.overview(), result.data);
      // The reminder reschedules from the new interval.
      void queryClient.invalidateQueries({ queryKey: responsiblePlayKeys.realityCheck() });
    },
  });
}
