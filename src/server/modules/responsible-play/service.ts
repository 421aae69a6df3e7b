import { desc, eq } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import type {
  AdminResponsiblePlay,
  LinkedAccount,
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
  /** The console sees every break on the account; the player, those shown to them. */
  which: 'any' | 'shown' = 'shown',
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
    activeExclusion(db, userId, now, which),
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
  const overview = await readResponsiblePlay(db, userId, now, 'any');
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
    linkedAccounts: await readLinkedAccounts(db, userId),
  };
}

/** The accounts a break bound to this one, either way (the console's user page). */
async function readLinkedAccounts(db: Database, userId: string): Promise<LinkedAccount[]> {
  const copy = alias(playExclusions, 'copy');
  const source = alias(playExclusions, 'source');
  const linked = (otherUser: AnyPgColumn, thisUser: AnyPgColumn) =>
    db
      .select({ copy, other: { id: users.id, handle: users.handle, email: users.email } })
      .from(copy)
      .innerJoin(source, eq(source.id, copy.boundFrom))
      .innerJoin(users, eq(users.id, otherUser))
      .where(eq(thisUser, userId));
  const [heldByThis, heldByOthers] = await Promise.all([
    linked(copy.userId, source.userId),
    linked(source.userId, copy.userId),
  ]);
  const toLinked = (row: (typeof heldByThis)[number], heldByThisAccountsBreak: boolean) => ({
    userId: row.other.id,
    handle: row.other.handle,
    email: row.other.email,
    heldByThisAccountsBreak,
    matchedOn: row.copy.boundBy ?? [],
    kind: row.copy.kind,
    boundAt: row.copy.startsAt.toISOString(),
    endsAt: row.copy.endsAt.toISOString(),
    liftedAt: row.copy.liftedAt?.toISOString() ?? null,
  });
  return [
    ...heldByThis.map((row) => toLinked(row, true)),
    ...heldByOthers.map((row) => toLinked(row, false)),
  ].sort((a, b) => b.boundAt.localeCompare(a.boundAt));
}
