import { and, count, desc, eq, isNull } from 'drizzle-orm';
import { DEFAULT_PAGE_SIZE } from '../../../shared/constants.ts';
import type { NotificationPage } from '../../../shared/schemas/notifications.ts';
import type { Executor } from '../../db/client.ts';
import { notifications } from '../../db/schema.ts';
import { paginate } from '../../lib/pagination.ts';

/**
 * The one way every feature tells a player something. Pass the open transaction so the
 * notice commits (or rolls back) together with the event it describes.
 */
export async function notify(
  db: Executor,
  userId: string,
  title: string,
  message: string,
  /** Where it leads in the web app (gameDetailsPath, WALLET_PATH). */
  link: string | null = null,
): Promise<void> {
  await db.insert(notifications).values({ userId, title, message, link });
}

export async function listNotifications(
  db: Executor,
  userId: string,
  page: number,
  pageSize = DEFAULT_PAGE_SIZE,
): Promise<NotificationPage> {
  const mine = eq(notifications.userId, userId);
  const [rows, [totals], [unread]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(mine)
      .orderBy(desc(notifications.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(notifications).where(mine),
    db
      .select({ total: count() })
      .from(notifications)
      .where(and(mine, isNull(notifications.readAt))),
  ]);
  return {
    notifications: rows.map((row) => ({
      id: String(row.id),
      title: row.title,
      message: row.message,
      link: row.link,
      hasRead: row.readAt !== null,
      createdAt: row.createdAt.toISOString(),
    })),
    pagination: paginate(totals?.total ?? 0, page, pageSize),
    unreadCount: unread?.total ?? 0,
  };
}

export async function markAllAsRead(db: Executor, userId: string): Promise<number> {
  const updated = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return updated.length;
}
