import type { Settings } from '@shared/schemas/settings.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { adminKeys } from './keys.ts';
import type { Envelope } from './types.ts';

/** GET /settings: fees, minimum payment, daily limit, tournament launch. */
export const getSettings = () =>
  http.get<Envelope<Settings>>('/settings').then((body) => body.data);

export const adminSettingsQueryOptions = queryOptions({
  queryKey: adminKeys.settings,
  queryFn: getSettings,
  staleTime: 0,
});

export function useAdminSettings() {
  return useQuery(adminSettingsQueryOptions);
}
