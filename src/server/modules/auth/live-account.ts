import { sql } from 'drizzle-orm';
import { ACCOUNT_MESSAGES } from '../../../shared/messages.ts';
import type { Executor } from '../../db/client.ts';
import { unauthorized } from '../../errors.ts';

/** Who asks for a money-moving request: the account and the session its token belongs to. */
export interface Actor {
  id: string;
  sessionId: string;
  /** The token version the request was admitted with. */
  tokenVersion: number;
}

/**
 * First statement of every transaction that moves money for a player (play, withdrawal, plan,
 * top-up): locks the player's row and refuses unless the account and the session are still
 * what the request was admitted with. Admission reads a cache that another instance's change
 * reaches only milliseconds later; this makes a suspension, deletion, password change or
 * log-out committed before the lock stop the request, on whichever instance it runs.
 */
export async function lockLiveAccount(tx: Executor, actor: Actor, now: Date): Promise<void> {
  const result = await tx.execute(sql`
    SELECT u.token_version, u.suspended_at IS NOT NULL AS suspended,
      u.deleted_at IS NOT NULL AS deleted, s.id IS NOT NULL AS session_live
    FROM users u
    LEFT JOIN sessions s ON s.id = ${actor.sessionId} AND s.user_id = u.id
      AND s.revoked_at IS NULL AND s.expires_at > ${now.toISOString()}::timestamptz
    WHERE u.id = ${actor.id}
    FOR UPDATE OF u`);
  const [row] = (
    result as unknown as {
      rows: Array<{
        token_version: number;
        suspended: boolean;
        deleted: boolean;
        session_live: boolean;
      }>;
    }
  ).rows;
  if (!row || row.deleted || !row.session_live || row.token_version !== actor.tokenVersion)
    throw unauthorized();
  if (row.suspended) throw unauthorized(ACCOUNT_MESSAGES.suspended);
}
