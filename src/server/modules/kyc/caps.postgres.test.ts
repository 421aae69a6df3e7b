import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, withdrawals } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createPlayer } from '../../test/factories.ts';
import { balanceOf } from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

// Real concurrency needs real PostgreSQL: included only when TEST_DATABASE_URL is set.
const database = testDatabasePerFile();
let paystack: FakePaystack;
beforeAll(async () => {
  paystack = await startFakePaystack();
});
afterAll(() => paystack.close());

describe('tier caps under concurrency (PostgreSQL)', () => {
  it('20 concurrent ₦10,000 withdrawals of a tier-1 player: exactly the ₦50,000 of the day go', async () => {
    const app = await buildTestApp(database(), paystack.env);
    const player = await createPlayer(app.db, { kobo: 50_000_000n });
    const headers = await bearerFor(app, player);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.inject({
          method: 'POST',
          url: '/api/v1/withdrawal',
          headers,
          payload: { amount: 10_000 },
        }),
      ),
    );
    const created = responses.filter((response) => response.statusCode === 201);
    expect(created).toHaveLength(5);
    for (const refused of responses.filter((response) => response.statusCode !== 201)) {
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(
        /^Tier 1 accounts can withdraw at most ₦50,000 a day; ₦0 is left today\./,
      );
    }
    const rows = await app.db.select().from(withdrawals).where(eq(withdrawals.userId, player.id));
    expect(rows).toHaveLength(5);
    expect(await balanceOf(app.db, player.id)).toBe(50_000_000n - 5n * (1_000_000n + 5_000n));
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('concurrent top-ups: open checkouts count, so together they cannot pass the cap', async () => {
    const app = await buildTestApp(database(), paystack.env);
    const player = await createPlayer(app.db, { kobo: 29_000_000n });
    const headers = await bearerFor(app, player);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        app.inject({
          method: 'POST',
          url: '/api/v1/payment/paystack',
          headers,
          payload: { amount: 3_000 },
        }),
      ),
    );
    // ₦290,000 held: room for three ₦3,000 checkouts under ₦300,000, not a fourth.
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(3);
    const opened = await app.db.select().from(payments).where(eq(payments.userId, player.id));
    expect(opened).toHaveLength(3);
  });
});
