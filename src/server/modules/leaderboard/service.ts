import { sql } from 'drizzle-orm';
import { DAY_MS, lagosMidnight } from '../../../shared/date.ts';
import { koboToNaira } from '../../../shared/money.ts';
import type { LeaderboardEntry, LeaderboardRank } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import { drawnEntrySql } from '../../db/outcome.ts';
import { publicUsername } from '../users/serialize.ts';

export interface LeaderboardQuery {
  dateFrom?: string;
  dateTo?: string;
  pageSize: number;
  categoryID?: string;
}

/** The window and category of a query as SQL conditions; null when the category is unknown. */
function windowOf(query: Omit<LeaderboardQuery, 'pageSize'>) {
  const from = query.dateFrom ? lagosMidnight(query.dateFrom) : new Date(0);
  const to = query.dateTo
    ? new Date(lagosMidnight(query.dateTo).getTime() + DAY_MS)
    : new Date('9999-12-31');
  const category =
    query.categoryID && /^[0-9a-f-]{36}$/i.test(query.categoryID) ? query.categoryID : null;
  if (query.categoryID && !category) return null;

  /** Rows of `alias` (entries or winners, both with the entry's time) in the window and category. */
  const inWindow = (alias: string) => {
    const e = sql.raw(alias);
    return sql`${e}.created_at >= ${from.toISOString()}::timestamptz AND ${e}.created_at < ${to.toISOString()}::timestamptz
      ${category ? sql`AND ${e}.game_id IN (SELECT id FROM games WHERE category_id = ${category})` : sql``}`;
  };
  /** Entries of `alias` that count: not refunded, drawn (won or lost), in the window and category. */
  const counted = (alias: string) =>
    sql`NOT ${sql.raw(alias)}.refunded AND ${drawnEntrySql(alias)} AND ${inWindow(alias)}`;
  /**
   * Winners (game_winners) `alias` in the window: a winner is drawn and never refunded, so this
   * needs no look at its entry or game, and game_winners_winnings_idx answers it alone.
   */
  const won = (alias: string) => inWindow(alias);
  const live = (alias: string) =>
    sql`NOT EXISTS (SELECT 1 FROM users d WHERE d.id = ${sql.raw(alias)}.user_id AND d.deleted_at IS NOT NULL)`;
  /**
   * Per player of the window: winnings and points (+10 per counted entry, +50 per win). Entries
   * and winners are each counted per player and then joined, not joined entry by entry: every
   * winner is a counted entry (drawn, never refunded, same time and game), so a player with
   * wins has played rows too.
   */
  const totals = sql`
    SELECT p.user_id, coalesce(w.won, 0) AS won, (p.games * 10 + coalesce(w.wins, 0) * 50)::int AS points
    FROM (SELECT e.user_id, count(*) AS games FROM game_entries e
      WHERE ${counted('e')} AND ${live('e')} GROUP BY e.user_id) p
    LEFT JOIN (SELECT w.user_id, sum(w.prize) AS won, count(*) AS wins FROM game_winners w
      WHERE ${won('w')} AND ${live('w')} GROUP BY w.user_id) w ON w.user_id = p.user_id`;
  return { counted, won, live, totals };
}

const columns = sql`u.handle, u.level,
    coalesce((p.features->>'getVerifiedBadge')::boolean, false) AS verified,
    coalesce((p.features->>'priorityLeaderboardPlacement')::boolean, false) AS priority`;

/**
 * Drawn entries in the window (and category): winnings first, then VIP priority placement,
 * then points earned in the window (+10 per game, +50 per win).
 *
 * Shaped for 1,000,000 entries (see `npm run bench`). Winnings decide the order first, so the
 * page can only hold players whose winnings reach the page's last place: those are found from
 * the winners alone (a fifth of the entries, read from game_winners_winnings_idx), and only
 * they (ties included) get their points counted (game_entries_player_entries_idx) and their
 * account joined. When fewer players than the page won anything, players without winnings
 * belong on the page too, and the whole window is ranked instead.
 */
export async function leaderboard(
  db: Database,
  query: LeaderboardQuery,
): Promise<LeaderboardEntry[]> {
  const window = windowOf(query);
  if (!window) return [];
  const { counted, won, live, totals } = window;

  // 1. Players whose winnings reach the page's last place (ties included); none when fewer
  //    players than the page won anything.
  const candidates = (
    (await db.execute(sql`
      WITH winnings AS (
        SELECT w.user_id, sum(w.prize) AS won, count(*) AS wins
        FROM game_winners w
        WHERE ${won('w')} AND ${live('w')}
        GROUP BY w.user_id
      ),
      last_place AS (SELECT won FROM winnings ORDER BY won DESC OFFSET ${query.pageSize - 1} LIMIT 1)
      SELECT user_id::text AS id, won::text AS won, wins::int AS wins FROM winnings
      WHERE won >= (SELECT won FROM last_place) AND (SELECT won FROM last_place) > 0`)) as unknown as {
      rows: Array<{ id: string; won: string; wins: number }>;
    }
  ).rows;
  // 2. Their points and accounts, then the full order. A separate statement, so the planner
  //    knows how few they are (one key lookup each, no JIT for a misjudged large join). Their
  //    wins come with their winnings (each winner is one of their counted entries), so only
  //    their entries are counted here.
  const result =
    candidates.length > 0
      ? await db.execute(sql`
    SELECT ${columns}, c.won::bigint AS won,
      ((SELECT count(*) FROM game_entries x WHERE x.user_id = c.user_id AND ${counted('x')}) * 10
        + c.wins * 50)::int AS points
    FROM unnest(${`{${candidates.map((c) => c.id).join(',')}}`}::uuid[],
      ${`{${candidates.map((c) => c.won).join(',')}}`}::numeric[],
      ${`{${candidates.map((c) => c.wins).join(',')}}`}::int[]) AS c(user_id, won, wins)
    CROSS JOIN LATERAL (SELECT handle, level, plan_id FROM users WHERE id = c.user_id OFFSET 0) u
    LEFT JOIN plans p ON p.id = u.plan_id
    ORDER BY c.won DESC, priority DESC, points DESC, u.handle
    LIMIT ${query.pageSize}`)
      : await db.execute(sql`
    SELECT ${columns}, t.won::bigint AS won, t.points
    FROM (${totals}) t
    JOIN users u ON u.id = t.user_id
    LEFT JOIN plans p ON p.id = u.plan_id
    ORDER BY t.won DESC, priority DESC, t.points DESC, u.handle
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

/**
 * The player's own place in the same order as the board (winnings, VIP priority, points, then
 * name), wherever it is: the page shows it even outside the top 10. Null
 * when the player has no drawn entry in the window.
 */
export async function myRank(
  db: Database,
  userId: string,
  query: Omit<LeaderboardQuery, 'pageSize'>,
): Promise<LeaderboardRank> {
  const window = windowOf(query);
  if (!window) return { rank: null, entry: null };
  const { totals } = window;
  const result = (await db.execute(sql`
    WITH totals AS (${totals}),
    ranked AS (
      SELECT t.user_id, t.won, t.points, ${columns}
      FROM totals t
      JOIN users u ON u.id = t.user_id
      LEFT JOIN plans p ON p.id = u.plan_id
    )
    SELECT me.handle, me.level, me.verified, me.won::bigint AS won, me.points,
      1 + (SELECT count(*) FROM ranked r
        WHERE (r.won, r.priority::int, r.points, me.handle) > (me.won, me.priority::int, me.points, r.handle)
      )::int AS rank
    FROM ranked me WHERE me.user_id = ${userId}`)) as unknown as {
    rows: Array<{
      handle: string;
      level: number;
      verified: boolean;
      won: string | number | bigint;
      points: number;
      rank: number;
    }>;
  };
  const row = result.rows[0];
  if (!row) return { rank: null, entry: null };
  return {
    rank: Number(row.rank),
    entry: {
      username: publicUsername(row.handle, row.verified),
      isVerified: row.verified,
      level: Number(row.level),
      totalAmountWon: koboToNaira(BigInt(row.won)),
      totalPoints: Number(row.points),
    },
  };
}
