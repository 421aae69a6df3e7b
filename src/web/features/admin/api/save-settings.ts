import type { Settings } from '@shared/schemas/settings.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { setSettings } from '@web/lib/session.ts';
import { adminKeys } from './keys.ts';
import type { Envelope } from './types.ts';

/** PUT /admin/settings; the session's copy follows so the rest of the app sees it at once. */
export const saveSettings = (body: Settings) =>
  http.put<Envelope<Settings>>('/admin/settings', body);

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSettings,
    onSuccess: (result) => {
      queryClient.setQueryData(adminKeys.settings, result.data);
      setSettings(result.data);
      void queryClient.invalidateQueries({ queryKey: ['settings'] });
    },
  });
}
