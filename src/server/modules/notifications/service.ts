import { type SQL, sql } from 'drizzle-orm';
import { DEFAULT_PAGE_SIZE } from '../../../shared/constants.ts';
import type { NotificationPage } from '../../../shared/schemas/notifications.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
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

/**
 * A player's notices: their own rows, and the result notice of every drawn game they played
 * (one `game_result_notices` row per game, the winner's or the loser's text by the entry; read
 * once a `game_result_reads` row says so). Both kinds take their ids from one sequence, so
 * together they page newest first as one list did when every result was a row of its own.
 */
function noticesOf(userId: string): SQL {
  return sql`
    SELECT n.id, n.title, n.message, n.link, n.read_at IS NOT NULL AS has_read, n.created_at
    FROM notifications n WHERE n.user_id = ${userId}
    UNION ALL
    SELECT r.id,
      CASE WHEN w.entry_id IS NOT NULL THEN r.winner_title ELSE r.loser_title END,
      CASE WHEN w.entry_id IS NOT NULL THEN r.winner_message ELSE r.loser_message END,
      r.link,
      EXISTS (SELECT 1 FROM game_result_reads d WHERE d.user_id = e.user_id AND d.game_id = e.game_id),
      r.created_at
    FROM game_entries e JOIN game_result_notices r ON r.game_id = e.game_id
    LEFT JOIN game_winners w ON w.game_id = e.game_id AND w.entry_id = e.id
    WHERE e.user_id = ${userId}`;
}

interface NoticeRow {
  id: string | number;
  title: string;
  message: string;
  link: string | null;
  has_read: boolean;
  created_at: string | Date;
}

export async function listNotifications(
  db: Executor,
  userId: string,
  page: number,
  pageSize = DEFAULT_PAGE_SIZE,
): Promise<NotificationPage> {
  const [rows, [totals]] = await Promise.all([
    rowsOf<NoticeRow>(
      db,
      sql`
      SELECT * FROM (${noticesOf(userId)}) notices
      ORDER BY id DESC LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`,
    ),
    rowsOf<{ total: number; unread: number }>(
      db,
      sql`
      SELECT count(*)::int AS total, (count(*) FILTER (WHERE NOT has_read))::int AS unread
      FROM (${noticesOf(userId)}) notices`,
    ),
  ]);
  return {
    notifications: rows.map((row) => ({
      id: String(row.id),
      title: row.title,
      message: row.message,
      link: row.link,
      hasRead: row.has_read,
      createdAt: new Date(row.created_at).toISOString(),
    })),
    pagination: paginate(totals?.total ?? 0, page, pageSize),
    unreadCount: totals?.unread ?? 0,
  };
}

/** Marks every notice of the player read, result notices included; how many were unread. */
export async function markAllAsRead(db: Executor, userId: string): Promise<number> {
  const now = new Date().toISOString();
  const [result] = await rowsOf<{ marked: number }>(
    db,
    sql`
    WITH own AS (
      UPDATE notifications SET read_at = ${now}::timestamptz
      WHERE user_id = ${userId} AND read_at IS NULL RETURNING 1
    ), results AS (
      INSERT INTO game_result_reads (user_id, game_id, read_at)
      SELECT e.user_id, e.game_id, ${now}::timestamptz
      FROM game_entries e JOIN game_result_notices r ON r.game_id = e.game_id
      WHERE e.user_id = ${userId}
      ON CONFLICT DO NOTHING RETURNING 1
    )
    SELECT ((SELECT count(*) FROM own) + (SELECT count(*) FROM results))::int AS marked`,
  );
  return result?.marked ?? 0;
}
