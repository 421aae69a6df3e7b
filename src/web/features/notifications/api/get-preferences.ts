import type { NotificationPreferences } from '@shared/schemas/push.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export const getPreferences = () =>
  http
    .get<{ data: NotificationPreferences }>('/notification/preferences')
    .then((body) => body.data);

export const preferencesQueryOptions = () =>
  queryOptions({
    queryKey: ['notification-preferences'] satisfies AppQueryKey,
    queryFn: getPreferences,
  });

export function usePreferences() {
  return useQuery(preferencesQueryOptions());
}
