import { sql } from 'drizzle-orm';
import { gameDetailsPath } from '../../../shared/games.ts';
import type { Executor } from '../../db/client.ts';
import { marketingAudience } from '../notifications/audience.ts';
import { queuePush } from '../notifications/fan-out.ts';

/**
 * Tournament invitations: plan holders with early invites hear at creation, everyone else when
 * the tournament opens. One set-based insert, however many players there are. These are
 * marketing: players who turned marketing off, or are on a break, are left out.
 */
export async function announceTournament(
  db: Executor,
  game: { id: string; title: string },
  audience: 'early' | 'everyone-else',
  now: Date = new Date(),
): Promise<void> {
  const early = sql`coalesce((p.features->>'earlyTournamentInvite')::boolean, false)`;
  await db.execute(sql`
    INSERT INTO notifications (user_id, title, message, link)
    SELECT u.id,
      ${audience === 'early' ? 'Early tournament invite' : 'A tournament is open'},
      ${
        audience === 'early'
          ? `You're among the first to know: "${game.title}" is coming to the Tournament Hub.`
          : `"${game.title}" is now open in the Tournament Hub.`
      },
      ${gameDetailsPath(game.id)}
    FROM users u LEFT JOIN plans p ON p.id = u.plan_id
    WHERE u.deleted_at IS NULL AND ${marketingAudience(now)}
      AND ${audience === 'early' ? early : sql`NOT ${early}`}`);
  await queuePush(db, { type: 'tournament', gameId: game.id, audience });
}
