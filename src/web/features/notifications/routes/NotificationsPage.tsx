import { ERROR_MESSAGES } from '@shared/messages.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { EmptyState } from '@web/components/ui/EmptyState.tsx';
import { PageLoading } from '@web/components/ui/LoadingState.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { Link } from 'wouter';
import { useNotifications } from '../api/get-notifications.ts';
import { useMarkAllAsRead } from '../api/mark-all-as-read.ts';
import { PushSettings } from '../components/PushSettings.tsx';

/**
 * Where a notification leads: the game it is about, or the wallet. Only
 * paths of this app are followed.
 */
function NotificationLink({ link }: { link: string | null }) {
  if (!link?.startsWith('/') || link.startsWith('//')) return null;
  const label = /^\/GameDetails/i.test(link) ? 'Open the game' : 'Open your wallet';
  return (
    <Link
      href={link}
      className="inline-flex min-h-11 items-center text-sm font-semibold text-accent hover:underline"
    >
      {label}
    </Link>
  );
}

export function NotificationsPage() {
  const [page, setPage] = useState(1);
  const { data, isPending, isError } = useNotifications(page);
  const markAll = useMarkAllAsRead();

  function onMarkAll() {
    markAll.mutate(undefined, {
      onSuccess: (result) => toast.success(result.message),
      onError: (error) => toast.error(errorMessage(error, ERROR_MESSAGES.generic)),
    });
  }

  return (
    <section aria-labelledby="notifications-title">
      <PageHeader title="Notifications" eyebrow="Inbox">
        {data && data.unreadCount > 0 ? (
          <Button variant="outline" onClick={onMarkAll} loading={markAll.isPending}>
            Mark all as read
          </Button>
        ) : null}
      </PageHeader>
      <PushSettings />
      <h2 id="notifications-title" className="sr-only">
        Your notifications
      </h2>
      {isPending ? (
        <PageLoading label="Loading notifications" />
      ) : isError || !data ? (
        // docs/product.md#errors: a failed notification load is silent; show the empty inbox.
        <EmptyState icon="🔔" title="No notifications yet">
          When you top up, play, win or withdraw, we will let you know here.
        </EmptyState>
      ) : data.notifications.length === 0 ? (
        <EmptyState icon="🔔" title="No notifications yet">
          When you top up, play, win or withdraw, we will let you know here.
        </EmptyState>
      ) : (
        <>
          <ul className="flex flex-col gap-3">
            {data.notifications.map((notification) => (
              <li
                key={notification.id}
                className={`flex gap-3 rounded-2xl border p-4 ${
                  notification.hasRead ? 'border-line bg-card' : 'border-wallet/40 bg-wallet/5'
                }`}
              >
                <span
                  aria-hidden="true"
                  className={`mt-1.5 size-2.5 shrink-0 rounded-full ${notification.hasRead ? 'bg-line' : 'bg-wallet'}`}
                />
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <h3 className="font-semibold">{notification.title}</h3>
                    {notification.hasRead ? null : (
                      <span className="rounded-full bg-wallet px-2 py-0.5 text-[11px] font-bold text-black">
                        Unread
                      </span>
                    )}
                  </div>
                  <p className="mt-1 text-sm text-white/80">{notification.message}</p>
                  {/* As tall as a link, so a notice without one keeps the same spacing. */}
                  <div className="mt-1 flex min-h-11 flex-wrap items-center justify-between gap-x-3">
                    <p className="text-xs text-muted">
                      <DateTime value={notification.createdAt} />
                    </p>
                    <NotificationLink link={notification.link} />
                  </div>
                </div>
              </li>
            ))}
          </ul>
          {data.pagination.totalPages > 1 ? (
            <nav
              aria-label="Notification pages"
              className="mt-6 flex items-center justify-center gap-3"
            >
              <Button variant="outline" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                Previous
              </Button>
              <span className="text-sm text-muted">
                Page {data.pagination.page} of {data.pagination.totalPages}
              </span>
              <Button
                variant="outline"
                disabled={page >= data.pagination.totalPages}
                onClick={() => setPage((p) => p + 1)}
              >
                Next
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}
