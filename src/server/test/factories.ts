import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import type { Actor } from '../modules/auth/live-account.ts';

let sequence = 0;

/** A short suffix unique across parallel files and runs sharing one database. */
export function uniqueSuffix(): string {
  sequence += 1;
  return `${randomBytes(4).toString('hex')}${sequence.toString(36)}`;
}

export type UserRow = typeof users.$inferSelect;

export async function createUser(
  db: Executor,
  overrides: Partial<typeof users.$inferInsert> = {},
): Promise<UserRow> {
  const suffix = uniqueSuffix();
  const [user] = await db
    .insert(users)
    .values({
      handle: `p_${suffix}`.slice(0, 20),
      fullname: `Test Plucker ${suffix}`,
      email: `plucker-${suffix}@example.test`,
      phoneNumber: '+2348012345678',
      emailVerifiedAt: new Date(),
      // Signed up through the form, which confirms 18+ (Google sign-ups: pass null).
      ageConfirmedAt: new Date(),
      ...overrides,
    })
    .returning();
  if (!user) throw new Error('createUser: insert returned nothing');
  return user;
}

export async function bearerFor(
  app: FastifyInstance,
  user: UserRow,
): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await app.tokens.sign(user)}` };
}

/**
 * A signed-in player as the money-moving services see them: the account with a live session,
 * for tests that call those services directly rather than through a route.
 */
export async function actorFor(
  db: Executor,
  user: Pick<UserRow, 'id' | 'tokenVersion'>,
): Promise<Actor> {
  const [session] = await db
    .insert(sessions)
    .values({ userId: user.id, expiresAt: new Date(Date.now() + 7 * 24 * 3_600_000) })
    .returning({ id: sessions.id });
  if (!session) throw new Error('actorFor: insert returned nothing');
  return { id: user.id, sessionId: session.id, tokenVersion: user.tokenVersion };
}
