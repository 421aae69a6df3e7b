import type { NotificationPage } from '@shared/schemas/notifications.ts';
import { http } from '@web/lib/http.ts';
import { prefetch, takeArrived, takePrefetched } from '@web/lib/prefetch.ts';

/*
 * The notifications request without TanStack Query, so the entry can start the first page
 * (the navigation bar's unread count) while the signed-in shell is still loading.
 */

export const getNotifications = (page: number) =>
  http
    .get<{ data: NotificationPage }>('/notification', { query: { page } })
    .then((body) => body.data);

const key = (page: number) => `notifications:${page}`;

/** Starts loading the first page: every signed-in screen's navigation bar shows its count. */
export function prefetchNotifications(): void {
  prefetch(key(1), () => getNotifications(1));
}

/** A page, from a request already under way when there is a fresh one. */
export function loadNotifications(page: number): Promise<NotificationPage> {
  return takePrefetched(key(page), () => getNotifications(page));
}

/** A page if a prefetch of it has already come back, for the first render. */
export function arrivedNotifications(page: number): NotificationPage | undefined {
  return takeArrived(key(page));
}
