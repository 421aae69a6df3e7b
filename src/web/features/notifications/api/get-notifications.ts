import type { NotificationPage } from '@shared/schemas/notifications.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';

export const getNotifications = (page: number) =>
  http
    .get<{ data: NotificationPage }>('/notification', { query: { page } })
    .then((body) => body.data);

export const notificationsQueryOptions = (page = 1) =>
  queryOptions({
    queryKey: ['notifications', page],
    queryFn: () => getNotifications(page),
  });

export function useNotifications(page = 1, options: { refetchInterval?: number } = {}) {
  return useQuery({ ...notificationsQueryOptions(page), ...options });
}
