import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { banks, users } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser } from '../../test/factories.ts';

const database = testDatabasePerFile();

describe('POST /api/v1/bank-account/resolve', () => {
  it('shows the account name before anything is saved, and refuses a bad check digit', async () => {
    const app = await buildTestApp(database());
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
    });
  });
});
