import type { settingsBodySchema } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { type AdminSettings, settingsSchema } from '@shared/schemas/settings.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import { setSettings } from '@web/lib/session.ts';
import type { z } from 'zod';
import { withFreshSecondFactor } from '../lib/fresh-second-factor.ts';

/** PUT /admin/settings; the session's copy follows so the rest of the app sees it at once. */
export const saveSettings = (body: z.output<typeof settingsBodySchema>) =>
  http.put<Envelope<AdminSettings>>('/admin/settings', body);

/** Asks for a fresh authenticator code when the server wants one, then sends it again. */
const saveSettingsConfirmed = withFreshSecondFactor(saveSettings);

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSettingsConfirmed,
    onSuccess: (result) => {
      queryClient.setQueryData(['admin', 'settings'] satisfies AppQueryKey, result.data);
      // Only the public settings: caps and the AML threshold stay out of the player's session.
      setSettings(settingsSchema.parse(result.data));
      void queryClient.invalidateQueries({ queryKey: ['settings'] satisfies AppQueryKey });
    },
  });
}
