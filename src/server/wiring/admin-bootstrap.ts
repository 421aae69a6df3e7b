import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import type { Database, Transaction } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/passwords.ts';

/** Arbitrary constant naming "the operator bootstrap" for pg_advisory_xact_lock. */
const ADMIN_BOOTSTRAP_LOCK_KEY = 727_002;
/** Handles tried before giving up: `<base>_ops`, then `<base>_ops2` … (someone may hold one). */
const HANDLE_ATTEMPTS = 20;

function candidateHandles(normalisedEmail: string): string[] {
  const base = (normalisedEmail.split('@')[0] ?? 'admin')
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 14)
    .padEnd(3, '_');
  return Array.from({ length: HANDLE_ATTEMPTS }, (_, attempt) =>
    `${base}_ops${attempt === 0 ? '' : attempt + 1}`.slice(0, 20),
  );
}

async function promote(
  tx: Transaction,
  normalisedEmail: string,
  passwordHash: string,
  now: Date,
): Promise<boolean> {
  const promoted = await tx
    .update(users)
    .set({
      role: 'admin',
      passwordHash,
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(eq(sql`lower(${users.email})`, normalisedEmail))
    .returning({ id: users.id });
  return promoted.length > 0;
}

/**
 * Creates the operator account, or promotes and re-keys an existing one, verified. Every instance
 * runs this at start-up, so several may run it at once on an empty database: the advisory lock
 * (released with the transaction) lets one create the account and the others then find it.
 * The insert still takes ON CONFLICT DO NOTHING, because a player signing up at that moment may
 * take the e-mail (then it is promoted) or the handle (then the next one is tried).
 */
export async function ensureAdmin(
  db: Database,
  email: string,
  password: string,
  now: Date,
): Promise<void> {
  const normalised = email.trim().toLowerCase();
  // Hashed before the lock: argon2 is slow on purpose, and the others need not wait for it.
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${ADMIN_BOOTSTRAP_LOCK_KEY})`);
    if (await promote(tx, normalised, passwordHash, now)) return;
    for (const handle of candidateHandles(normalised)) {
      const inserted = await tx
        .insert(users)
        .values({
          handle,
          fullname: 'Pluckers Operator',
          email: normalised,
          passwordHash,
          role: 'admin',
          emailVerifiedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (inserted.length > 0) return;
      if (await promote(tx, normalised, passwordHash, now)) return;
    }
    throw new Error(
      `ADMIN_EMAIL: could not create the operator account ${normalised}: handles ${candidateHandles(normalised)[0]}… are all taken`,
    );
  });
}

export default fp<{ config: AppConfig }>(
  async function adminBootstrapPlugin(app: FastifyInstance, { config }) {
    if (config.admin)
      await ensureAdmin(app.db, config.admin.email, config.admin.password, app.clock.now());
  },
  { name: 'admin-bootstrap', dependencies: ['database'] },
);
