import { lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { knownLoginAddresses, sessions } from '../../db/schema.ts';
import { KNOWN_NETWORK_TTL_MS } from './login-limits.ts';
import { sweepThrottles } from './throttle.ts';

/**
 * A session past its expiry refuses its token whatever its row says, and a network unseen for
 * KNOWN_NETWORK_TTL_MS no longer counts as the owner's: both rows are only garbage by then.
 * A day's grace keeps an expired session readable for anyone looking into a recent sign-in.
 */
const EXPIRED_SESSION_GRACE_MS = 24 * 3_600_000;

export async function sweepSignInRecords(db: Executor, now: Date): Promise<void> {
  await sweepThrottles(db, now);
  await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, new Date(now.getTime() - EXPIRED_SESSION_GRACE_MS)));
  await db
    .delete(knownLoginAddresses)
    .where(lt(knownLoginAddresses.lastSuccessAt, new Date(now.getTime() - KNOWN_NETWORK_TTL_MS)));
}
