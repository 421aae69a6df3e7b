import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';

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
