import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/passwords.ts';

/** Creates the operator account, or promotes and re-keys an existing one, verified. */
export async function ensureAdmin(
  db: Database,
  email: string,
  password: string,
  now: Date,
): Promise<void> {
  const normalised = email.trim().toLowerCase();
  const passwordHash = await hashPassword(password);
  const promoted = await db
    .update(users)
    .set({
      role: 'admin',
      passwordHash,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(sql`lower(${users.email})`, normalised))
    .returning({ id: users.id });
  if (promoted.length > 0) return;
  const base = (normalised.split('@')[0] ?? 'admin')
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 14)
    .padEnd(3, '_');
  await db.insert(users).values({
    handle: `${base}_ops`.slice(0, 20),
    fullname: 'Pluckers Operator',
    email: normalised,
    passwordHash,
    role: 'admin',
    emailVerifiedAt: now,
  });
}

export default fp<{ config: AppConfig }>(
  async function adminBootstrapPlugin(app: FastifyInstance, { config }) {
    if (config.admin)
      await ensureAdmin(app.db, config.admin.email, config.admin.password, app.clock.now());
  },
  { name: 'admin-bootstrap', dependencies: ['database'] },
);
