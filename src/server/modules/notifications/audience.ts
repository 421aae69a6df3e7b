import { sql } from 'drizzle-orm';

/**
 * Who may receive marketing (tournament announcements, offers): players who kept marketing on
 * and are on no break. A condition on `users` aliased `u`, for set-based sends.
 */
export function marketingAudience(now: Date) {
  return sql`u.marketing_emails AND NOT EXISTS (
    SELECT 1 FROM play_exclusions x
    WHERE x.user_id = u.id AND x.lifted_at IS NULL
      AND x.starts_at <= ${now.toISOString()}::timestamptz
      AND x.ends_at > ${now.toISOString()}::timestamptz)`;
}
