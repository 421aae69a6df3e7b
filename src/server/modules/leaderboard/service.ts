import { sql } from 'drizzle-orm';
import { koboToNaira } from '../../../shared/money.ts';
import type { LeaderboardEntry } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import { publicUsername } from '../users/serialize.ts';

export interface LeaderboardQuery {
  dateFrom?: string;
  dateTo?: string;
  pageSize: number;
  categoryID?: string;
}

/** 'YYYY-MM-DD' as the start of that day in Lagos (UTC+1). */
const lagosDay = (date: string) => new Date(`${date}T00:00:00+01:00`);

/**
 * Drawn entries in the window (and category): winnings first, then VIP priority placement,
 * then points earned in the window (+10 per game, +50 per win).
 */
export async function leaderboard(
  db: Database,
  query: LeaderboardQuery,
): Promise<LeaderboardEntry[]> {
  const from = query.dateFrom ? lagosDay(query.dateFrom) : new Date(0);
  const to = query.dateTo
    ? new Date(lagosDay(query.dateTo).getTime() + 86_400_000)
    : new Date('9999-12-31');
  const category =
    query.categoryID && /^[0-9a-f-]{36}$/i.test(query.categoryID) ? query.categoryID : null;
  if (query.categoryID && !category) return [];

  const result = await db.execute(sql`
    SELECT u.handle, u.level,
      coalesce((p.features->>'getVerifiedBadge')::boolean, false) AS verified,
      coalesce((p.features->>'priorityLeaderboardPlacement')::boolean, false) AS priority,
      sum(e.prize)::bigint AS won,
      (count(*) * 10 + count(*) FILTER (WHERE e.is_winner) * 50)::int AS points
    FROM game_entries e
    JOIN users u ON u.id = e.user_id
    LEFT JOIN plans p ON p.id = u.plan_id
    ${category ? sql`JOIN games g ON g.id = e.game_id AND g.category_id = ${category}` : sql``}
    WHERE e.is_winner IS NOT NULL AND NOT e.refunded
      AND e.created_at >= ${from.toISOString()}::timestamptz AND e.created_at < ${to.toISOString()}::timestamptz
      AND u.deleted_at IS NULL
    GROUP BY u.id, u.handle, u.level, p.features
    ORDER BY won DESC, priority DESC, points DESC, u.handle
    LIMIT ${query.pageSize}`);
  const rows = (
    result as unknown as {
      rows: Array<{
        handle: string;
        level: number;
        verified: boolean;
        won: string | number | bigint;
        points: number;
      }>;
    }
  ).rows;
  return rows.map((row) => ({
    username: publicUsername(row.handle, row.verified),
    isVerified: row.verified,
    level: Number(row.level),
    totalAmountWon: koboToNaira(BigInt(row.won)),
    totalPoints: Number(row.points),
  }));
}
