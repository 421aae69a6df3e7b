import type { Envelope } from '@shared/schemas/common.ts';
import type { AdminSettings } from '@shared/schemas/settings.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/**
 * GET /admin/settings: fees, minimum payment, daily limit, tournament launch, and what only
 * operators see: the KYC tier caps and the AML review threshold.
 */
export const getSettings = () =>
  http.get<Envelope<AdminSettings>>('/admin/settings').then((body) => body.data);

export const adminSettingsQueryOptions = queryOptions({
  queryKey: ['admin', 'settings'] satisfies AppQueryKey,
  queryFn: getSettings,
  staleTime: 0,
});

export function useAdminSettings() {
  return useQuery(adminSettingsQueryOptions);
}
