import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { banks, users } from '../../db/schema.ts';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser } from '../../test/factories.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

describe('POST /api/v1/bank-account/resolve', () => {
  it('shows the account name before anything is saved, and refuses a bad check digit', async () => {
    const app = fileApp();
    const user = await createUser(app.db, { fullname: 'Ada Obi' });
    const headers = await bearerFor(app, user);
    const [gtb] = await app.db.select().from(banks).where(eq(banks.code, '058'));
    if (!gtb) throw new Error('seeded banks are missing GTBank');

    const resolved = await app.inject({
      method: 'POST',
      url: '/api/v1/bank-account/resolve',
      headers,
      payload: { bankID: gtb.id, accountNumber: '0123456785' },
    });
    expect(resolved.json()).toEqual({ data: { accountName: 'ADA OBI', bankName: gtb.bankName } });
    const [stored] = await app.db
      .select({ number: users.bankAccountNumber })
      .from(users)
      .where(eq(users.id, user.id));
    expect(stored?.number).toBeNull();

    const wrong = await app.inject({
      method: 'POST',
      url: '/api/v1/bank-account/resolve',
      headers,
      payload: { bankID: gtb.id, accountNumber: '0123456789' },
    });
    expect(wrong.json()).toEqual({
      message: 'Enter a valid 10-digit account number for this bank',
      statusCode: 400,
      code: 'BAD_REQUEST',
    });
  });

  it('limits lookups per player, not per client address (carrier NAT)', async () => {
    const app = fileApp();
    const [gtb] = await app.db.select().from(banks).where(eq(banks.code, '058'));
    const lookup = async (user: Awaited<ReturnType<typeof createUser>>) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/bank-account/resolve',
        headers: await bearerFor(app, user),
        payload: { bankID: gtb?.id, accountNumber: '0123456785' },
        remoteAddress: '102.89.1.1',
      });
    const busy = await createUser(app.db, { fullname: 'Ada Obi' });
    for (let attempt = 1; attempt <= 10; attempt += 1)
      expect((await lookup(busy)).statusCode).toBe(200);
    const limited = await lookup(busy);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // 30 other players behind the same address are not affected.
    for (let player = 0; player < 30; player += 1) {
      const neighbour = await createUser(app.db, { fullname: 'Chidi Okafor' });
      expect((await lookup(neighbour)).statusCode).toBe(200);
    }
  });
});
