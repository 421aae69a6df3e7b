import { desc, eq } from 'drizzle-orm';
import type {
  AdminResponsiblePlay,
  PreferencesBody,
  ResponsiblePlay,
} from '../../../shared/schemas/responsible-play.ts';
import type { Database, Executor } from '../../db/client.ts';
import { playExclusions, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { activeExclusion, toApiExclusion } from './exclusions.ts';
import { readLimits } from './limits.ts';

/** Everything the Responsible play page shows about the player. */
export async function readResponsiblePlay(
  db: Executor,
  userId: string,
  now: Date,
): Promise<ResponsiblePlay> {
  const [user] = await db
    .select({
      realityCheckMinutes: users.realityCheckMinutes,
      marketingEmails: users.marketingEmails,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound('User not found');
  const [limits, exclusion] = await Promise.all([
    readLimits(db, userId, now),
    activeExclusion(db, userId, now),
  ]);
  return { limits, exclusion: exclusion ? toApiExclusion(exclusion) : null, ...user };
}

export async function updatePreferences(
  db: Database,
  userId: string,
  body: PreferencesBody,
): Promise<void> {
  await db
    .update(users)
    .set({
      ...(body.realityCheckMinutes !== undefined
        ? { realityCheckMinutes: body.realityCheckMinutes }
        : {}),
      ...(body.marketingEmails !== undefined ? { marketingEmails: body.marketingEmails } : {}),
    })
    .where(eq(users.id, userId));
}

/** The console's view: the page's figures plus every break, lifted ones and who lifted them. */
export async function readAdminResponsiblePlay(
  db: Database,
  userId: string,
  now: Date,
): Promise<AdminResponsiblePlay> {
  const overview = await readResponsiblePlay(db, userId, now);
  const rows = await db
    .select({ exclusion: playExclusions, liftedBy: users.email })
    .from(playExclusions)
    .leftJoin(users, eq(users.id, playExclusions.liftedBy))
    .where(eq(playExclusions.userId, userId))
    .orderBy(desc(playExclusions.startsAt))
    .limit(50);
  return {
    ...overview,
    exclusions: rows.map((row) => ({ ...toApiExclusion(row.exclusion), liftedBy: row.liftedBy })),
  };
}
