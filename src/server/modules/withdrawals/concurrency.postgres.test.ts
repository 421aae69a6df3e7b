import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, withdrawals } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createAdmin, createPlayer, uniqueSuffix } from '../../test/factories.ts';
import { balanceOf, walletEntryCount } from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

// Real concurrency needs real PostgreSQL (PGlite runs one statement at a time, so races cannot
// happen there): vitest.config.ts includes *.postgres.test.ts only when TEST_DATABASE_URL is set.
const database = testDatabasePerFile();
let paystack: FakePaystack;
beforeAll(async () => {
  paystack = await startFakePaystack();
});
afterAll(() => paystack.close());

/** Samples a wallet while `work` runs: the balance must never be seen below zero. */
async function watchBalance<T>(
  db: Parameters<typeof balanceOf>[0],
  userId: string,
  work: Promise<T>,
) {
  const seen: bigint[] = [];
  let done = false;
  const sampler = (async () => {
    while (!done) {
      seen.push(await balanceOf(db, userId));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  try {
    return { result: await work, seen };
  } finally {
    done = true;
    await sampler;
  }
}

describe('withdrawals under concurrency (PostgreSQL)', () => {
  it('100 concurrent withdrawals against a balance for k of them: exactly k succeed', async () => {
    const app = await buildTestApp(database(), paystack.env);
    const k = 37;
    // k × (₦100 + ₦50 fee), plus ₦149.99: not enough for one more.
    const start = BigInt(k) * 15_000n + 14_999n;
    const player = await createPlayer(app.db, { kobo: start });
    const headers = await bearerFor(app, player);

    const { result: responses, seen } = await watchBalance(
      app.db,
      player.id,
      Promise.all(
        Array.from({ length: 100 }, () =>
          app.inject({
            method: 'POST',
            url: '/api/v1/withdrawal',
            headers,
            payload: { amount: 100 },
          }),
        ),
      ),
    );

    const created = responses.filter((r) => r.statusCode === 201);
    const refused = responses.filter((r) => r.statusCode !== 201);
    expect(created).toHaveLength(k);
    expect(refused).toHaveLength(100 - k);
    for (const response of refused) {
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(
        'Insufficient balance: this withdrawal needs ₦150 (including the ₦50 fee)',
      );
    }
    expect(await balanceOf(app.db, player.id)).toBe(14_999n);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((balance) => balance >= 0n && balance <= start)).toBe(true);
    const rows = await app.db.select().from(withdrawals).where(eq(withdrawals.userId, player.id));
    expect(rows).toHaveLength(k);
    expect(new Set(created.map((r) => r.json().data.id))).toEqual(new Set(rows.map((r) => r.id)));
    expect(await walletEntryCount(app.db, player.id)).toBe(k + 1);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('many players withdrawing at once with distinct and repeated Idempotency-Keys stay exact', async () => {
    const app = await buildTestApp(database(), paystack.env);
    const players = await Promise.all(
      Array.from({ length: 10 }, () => createPlayer(app.db, { kobo: 100_000n })),
    );
    const requests = await Promise.all(
      players.flatMap((player) =>
        Array.from({ length: 8 }, (_, i) =>
          bearerFor(app, player).then((headers) =>
            app.inject({
              method: 'POST',
              url: '/api/v1/withdrawal',
              // Every request twice with the same key: 4 distinct withdrawals of ₦200 per player.
              headers: { ...headers, 'idempotency-key': `k-${player.id}-${i % 4}` },
              payload: { amount: 200 },
            }),
          ),
        ),
      ),
    );
    expect(requests.filter((r) => r.statusCode === 201)).toHaveLength(40);
    expect(requests.filter((r) => r.statusCode === 200)).toHaveLength(40);
    for (const player of players) expect(await balanceOf(app.db, player.id)).toBe(0n);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('approvals and rejections racing on the same withdrawals decide each exactly once', async () => {
    const app = await buildTestApp(database(), paystack.env);
    const admin = await createAdmin(app.db);
    const adminHeaders = await bearerFor(app, admin);
    const player = await createPlayer(app.db, { kobo: 200_000n });
    const headers = await bearerFor(app, player);
    const ids: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/withdrawal',
        headers: { ...headers, 'idempotency-key': `race-${uniqueSuffix()}` },
        payload: { amount: 100 },
      });
      ids.push(response.json().data.id);
    }
    expect(await balanceOf(app.db, player.id)).toBe(50_000n);
    const decisions = await Promise.all(
      ids.flatMap((id) => [
        app.inject({
          method: 'POST',
          url: `/api/v1/admin/withdrawals/${id}/approve`,
          headers: adminHeaders,
          payload: { reviewNote: 'racing test' },
        }),
        app.inject({
          method: 'POST',
          url: `/api/v1/admin/withdrawals/${id}/reject`,
          headers: adminHeaders,
          payload: { reason: 'racing test' },
        }),
        app.inject({
          method: 'POST',
          url: `/api/v1/admin/withdrawals/${id}/approve`,
          headers: adminHeaders,
          payload: { paidReference: 'HAND-PAID', reviewNote: 'racing test' },
        }),
      ]),
    );
    expect(decisions.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(decisions.filter((r) => r.statusCode === 409)).toHaveLength(20);
    const rows = await app.db.select().from(withdrawals).where(eq(withdrawals.userId, player.id));
    const rejected = rows.filter((r) => r.status === 'REJECTED').length;
    expect(rows.every((r) => r.status === 'REJECTED' || r.status === 'SUCCESSFUL')).toBe(true);
    // Each rejection returned ₦150; each payout kept its money out.
    expect(await balanceOf(app.db, player.id)).toBe(50_000n + BigInt(rejected) * 15_000n);
    const [row] = await app.db
      .select({ balance: users.accountBalance })
      .from(users)
      .where(eq(users.id, player.id));
    expect(row?.balance).toBeGreaterThanOrEqual(0n);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });
});
