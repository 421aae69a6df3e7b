import type { NotificationPage } from '@shared/schemas/notifications.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useHydrated } from '@web/lib/hydrated.tsx';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import { arrivedNotifications, loadNotifications } from './prefetch-notifications.ts';

export const notificationsQueryOptions = (page = 1) =>
  queryOptions({
    queryKey: ['notifications', page] satisfies AppQueryKey,
    queryFn: (): Promise<NotificationPage> => loadNotifications(page),
  });

export function useNotifications(page = 1, options: { refetchInterval?: number } = {}) {
  const hydrated = useHydrated();
  return useQuery({
    ...notificationsQueryOptions(page),
    // A cold start's prefetch that is already back shows with the first render (after
    // hydration: the prerendered shell has no count).
    initialData: hydrated ? () => arrivedNotifications(page) : undefined,
    ...options,
  });
}
