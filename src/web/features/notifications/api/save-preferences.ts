import type { NotificationPreferences } from '@shared/schemas/push.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { preferencesQueryOptions } from './get-preferences.ts';

export const savePreferences = (preferences: NotificationPreferences) =>
  http.put<{ message: string; data: NotificationPreferences }>(
    '/notification/preferences',
    preferences,
  );

/** Switches flip at once; a refused save puts them back. */
export function useSavePreferences() {
  const queryClient = useQueryClient();
  const { queryKey } = preferencesQueryOptions();
  return useMutation({
    mutationFn: savePreferences,
    onMutate: async (next) => {
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData(queryKey);
      queryClient.setQueryData(queryKey, next);
      return { previous };
    },
    onError: (_error, _next, context) => {
      if (context?.previous) queryClient.setQueryData(queryKey, context.previous);
    },
    onSuccess: (result) => queryClient.setQueryData(queryKey, result.data),
  });
}
