import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { verifyPassword } from '../modules/auth/passwords.ts';
import { testDatabasePerFile } from '../test/database.ts';
import { createUser, uniqueSuffix } from '../test/factories.ts';
import { ensureAdmin } from './admin-bootstrap.ts';

const database = testDatabasePerFile();

async function accountsWithEmail(email: string) {
  return database()
    .db.select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
}

describe('ensureAdmin (ADMIN_EMAIL / ADMIN_PASSWORD at start-up)', () => {
  it('creates one verified operator, and on the next start re-keys the same account', async () => {
    const email = `Boot${uniqueSuffix()}@Example.test`;
    const now = new Date('2031-03-04T05:06:07Z');

    await ensureAdmin(database().db, email, 'first operator password', now);
    await ensureAdmin(database().db, email, 'second operator password', new Date());

    const [account, ...others] = await accountsWithEmail(email);
    expect(others).toEqual([]);
    expect(account).toMatchObject({
      email: email.toLowerCase(),
      role: 'admin',
      fullname: 'Pluckers Operator',
      emailVerifiedAt: now,
    });
    expect(account?.handle).toMatch(/^boot[0-9a-z]{0,10}_ops$/);
    expect(await verifyPassword(account?.passwordHash ?? '', 'second operator password')).toBe(
      true,
    );
  });

  it('promotes an existing player with that e-mail, whatever its case', async () => {
    const player = await createUser(database().db, { emailVerifiedAt: null });

    await ensureAdmin(database().db, player.email.toUpperCase(), 'operator password', new Date());

    const [account, ...others] = await accountsWithEmail(player.email);
    expect(others).toEqual([]);
    expect(account).toMatchObject({ id: player.id, handle: player.handle, role: 'admin' });
    expect(account?.emailVerifiedAt).toBeInstanceOf(Date);
  });

  it('takes the next handle when a player already holds <name>_ops', async () => {
    const local = `ops${uniqueSuffix()}`.slice(0, 14);
    await createUser(database().db, { handle: `${local}_ops` });
    await createUser(database().db, { handle: `${local}_ops2` });
    const email = `${local}@example.test`;

    await ensureAdmin(database().db, email, 'operator password', new Date());

    const [account] = await accountsWithEmail(email);
    expect(account).toMatchObject({ handle: `${local}_ops3`, role: 'admin' });
  });
});
