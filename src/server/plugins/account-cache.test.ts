import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, users } from '../db/schema.ts';
import { testDatabasePerFile } from '../test/database.ts';
import { createUser } from '../test/factories.ts';
import {
  ACCOUNT_STATE_TTL_MS,
  AccountCache,
  type AccountSource,
  accountSourceOf,
} from './account-cache.ts';

/**
 * The auth plugin's memory of accounts and sessions, on the real database: what it remembers
 * answers without a read, and the asks that arrive together once it has expired share one.
 */
const database = testDatabasePerFile();
const NOW = Date.UTC(2026, 11, 2, 9);

/** The database's own source, with how many reads of each kind reached the database. */
function countedSource() {
  const source = accountSourceOf(database().db);
  const reads = { account: 0, session: 0 };
  const counted: AccountSource = {
    account(userId) {
      reads.account += 1;
      return source.account(userId);
    },
    session(sessionId) {
      reads.session += 1;
      return source.session(sessionId);
    },
  };
  return { counted, reads };
}

async function userWithSession() {
  const { db } = database();
  const user = await createUser(db);
  const [session] = await db
    .insert(sessions)
    .values({ userId: user.id, expiresAt: new Date(NOW + 7 * 24 * 3_600_000) })
    .returning({ id: sessions.id });
  if (!session) throw new Error('no session');
  return { user, sessionId: session.id };
}

describe('the account cache', () => {
  it('reads an expired account once for 20 asks that arrive together, and its session once', async () => {
    const { user, sessionId } = await userWithSession();
    const { counted, reads } = countedSource();
    const cache = new AccountCache(counted);
    const account = { role: 'player', tokenVersion: user.tokenVersion };
    expect(await cache.readAccount(user.id, NOW)).toMatchObject(account);
    expect(await cache.readSession(sessionId, NOW)).toMatchObject({ live: true });
    expect(reads).toEqual({ account: 1, session: 1 });
    // Remembered: answered without the database, at once and through a read.
    expect(cache.account(user.id, NOW + 1)).toMatchObject(account);
    await cache.readAccount(user.id, NOW + 1);
    expect(reads).toEqual({ account: 1, session: 1 });

    const later = NOW + ACCOUNT_STATE_TTL_MS;
    expect(cache.account(user.id, later)).toBeUndefined();
    const together = await Promise.all(
      Array.from({ length: 20 }, () =>
        Promise.all([cache.readAccount(user.id, later), cache.readSession(sessionId, later)]),
      ),
    );
    expect(reads).toEqual({ account: 2, session: 2 });
    for (const [read, session] of together) {
      expect(read).toMatchObject(account);
      expect(session).toEqual({ userId: user.id, live: true, secondFactorAt: null });
    }
    // Remembered again for the TTL from that read.
    expect(cache.account(user.id, later + 1)).toMatchObject(account);
  });

  it('forgets a read that a change overtook, and reads the changed account on the next ask', async () => {
    const { user } = await userWithSession();
    const { counted, reads } = countedSource();
    const cache = new AccountCache(counted);
    // The account changes while a read of it is under way: that read is not remembered...
    const raced = cache.readAccount(user.id, NOW);
    cache.forgetUser(user.id);
    const asked = cache.readAccount(user.id, NOW);
    // ...and an ask after the change does not wait for it but reads again.
    expect(reads.account).toBe(2);
    await Promise.all([raced, asked]);
    await database()
      .db.update(users)
      .set({ suspendedAt: new Date(NOW) })
      .where(eq(users.id, user.id));
    cache.forgetUser(user.id);
    expect(cache.account(user.id, NOW)).toBeUndefined();
    expect(await cache.readAccount(user.id, NOW)).toMatchObject({ suspended: true });
    expect(reads.account).toBe(3);
  });

  it('shares a failed read with those who waited for it, and reads again on the next ask', async () => {
    const { counted, reads } = countedSource();
    const cache = new AccountCache(counted);
    // Not a uuid: the database refuses the query.
    const together = await Promise.allSettled(
      Array.from({ length: 20 }, () => cache.readAccount('not-a-user-id', NOW)),
    );
    expect(together.every((result) => result.status === 'rejected')).toBe(true);
    expect(reads.account).toBe(1);
    await expect(cache.readAccount('not-a-user-id', NOW)).rejects.toThrow();
    expect(reads.account).toBe(2);
  });
});
