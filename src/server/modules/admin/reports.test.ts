import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerEntries, ledgerTransactions, payments } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser, testClock, uniqueSuffix } from '../../test/factories.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';

const database = testDatabasePerFile();

describe('GET /admin/reports', () => {
  it('puts the 30-day series in Lagos calendar days, today included', async () => {
    // A year of its own (never a leap year) far ahead, so no other test's entries fall in it.
    const year = 2901 + Math.floor(Math.random() * 24) * 4;
    const lagos = (day: string, time: string) => new Date(`${year}-${day}T${time}+01:00`);
    const clock = testClock(lagos('03-11', '00:30:00'));
    const app = await buildTestApp(database(), {}, { clock });
    const admin = await createUser(app.db, { role: 'admin' });
    const player = await createUser(app.db);

    // A real settled payment behind each top-up, so the ledger invariants other test files
    // check on the shared database keep holding.
    const deposit = async (kobo: bigint, at: Date) => {
      const paymentReference = `PLK-report-${uniqueSuffix()}`;
      const reference = `topup:paystack:${paymentReference}`;
      await app.db.transaction(async (tx) => {
        await tx.insert(payments).values({
          userId: player.id,
          method: 'paystack',
          reference: paymentReference,
          amount: kobo,
          status: 'SUCCESS',
          mode: 'live',
          settledAt: at,
        });
        await post(tx, {
          kind: 'top_up',
          reference,
          description: 'report test top-up',
          lines: [
            { account: ACCOUNTS.wallet, userId: player.id, amount: kobo },
            { account: ACCOUNTS.paymentClearing('paystack'), amount: -kobo },
          ],
        });
      });
      const ids = app.db
        .select({ id: ledgerTransactions.id })
        .from(ledgerTransactions)
        .where(inArray(ledgerTransactions.reference, [reference]));
      await app.db
        .update(ledgerEntries)
        .set({ createdAt: at })
        .where(inArray(ledgerEntries.transactionId, ids));
    };
    await deposit(99_900n, lagos('02-09', '23:59:59')); // the day before the first one shown
    await deposit(7_000n, lagos('02-10', '00:00:00')); // the first moment of the first day
    await deposit(10_000n, lagos('03-10', '23:59:00')); // yesterday, one minute before midnight
    await deposit(25_000n, lagos('03-11', '00:10:00')); // today

    const response = await app.inject({
      url: '/api/v1/admin/reports',
      headers: await bearerFor(app, admin),
    });
    expect(response.statusCode, response.body).toBe(200);
    const daily: Array<{ day: string; deposits: number }> = response.json().data.daily;
    expect(daily).toHaveLength(30);
    expect(daily[0]).toMatchObject({ day: `${year}-02-10`, deposits: 70 });
    expect(daily[28]).toMatchObject({ day: `${year}-03-10`, deposits: 100 });
    expect(daily[29]).toMatchObject({ day: `${year}-03-11`, deposits: 250 });
    expect(daily.reduce((sum, day) => sum + day.deposits, 0)).toBe(420);
    expect(new Set(daily.map((day) => day.day)).size).toBe(30);
  });
});
