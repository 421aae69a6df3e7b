import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';

/**
 * A break binds the person: binds this account to any running break of an account it shares
 * an identity key with, and its own running breaks to every account sharing one of its keys
 * (pluckers_bind_person, src/server/db/functions/pluckers_bind_person.sql: the rule and its keys exist only there). Sign-ins and
 * breaks that start do this in the database; the server calls it where an account is made or
 * its identity changes, and before money comes in.
 */
export async function bindPerson(db: Executor, userId: string, now: Date): Promise<void> {
  await db.execute(
    sql`SELECT count(*) FROM pluckers_bind_person(${userId}::uuid, ${now.toISOString()}::timestamptz)`,
  );
}
