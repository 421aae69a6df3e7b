import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gameEntries, payments } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createGame,
  createPlan,
  createPlayer,
  createUser,
} from '../../test/factories.ts';
import { balanceOf } from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { expectLedgerOk } from '../../test/ledger.ts';

const database = testDatabasePerFile();
let paystack: FakePaystack;
beforeAll(async () => {
  paystack = await startFakePaystack();
});
afterAll(() => paystack.close());

// Real concurrency needs real connections (PGlite runs one statement at a time): PostgreSQL only.
describe('limits under concurrency on PostgreSQL', () => {
  it('30 top-ups of ₦1,000 fired at once against a ₦5,000 daily limit: exactly 5 open a checkout', async () => {
    const app = await buildTestApp(database(), paystack.env);
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    const set = await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers,
      payload: { kind: 'deposit', period: 'day', amount: 5000 },
    });
    expect(set.statusCode).toBe(200);

    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        app.inject({
          method: 'POST',
          url: '/api/v1/payment/paystack',
          headers,
          payload: { amount: 1000 },
        }),
      ),
    );
    const opened = responses.filter((response) => response.statusCode === 200);
    const refused = responses.filter((response) => response.statusCode !== 200);
    expect(opened).toHaveLength(5);
    expect(refused).toHaveLength(25);
    for (const response of refused)
      expect(response.json().message).toMatch(
        /^You have reached your daily deposit limit of ₦5,000\./,
      );
    const rows = await app.db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, user.id), inArray(payments.status, ['PENDING', 'SUCCESS'])));
    expect(rows.reduce((sum, row) => sum + row.amount, 0n)).toBe(500_000n);
    expect(
      paystack.requests.filter(
        (request) =>
          request.path === '/transaction/initialize' &&
          (request.body as { email?: string }).email === user.email,
      ),
    ).toHaveLength(5);
  });

  it('10 paid checkouts landing at once against a ₦5,000 daily limit: exactly 5 credited, 5 refunded', async () => {
    const app = await buildTestApp(database(), paystack.env);
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    // Opened before the limit was set (a first limit applies at once), so all ten can be paid.
    const references = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/payment/paystack',
          headers,
          payload: { amount: 1000 },
        });
        expect(response.statusCode, response.body).toBe(200);
        return (response.json().data as { reference: string }).reference;
      }),
    );
    await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers,
      payload: { kind: 'deposit', period: 'day', amount: 5000 },
    });
    for (const reference of references) paystack.markPaid(reference);
    await Promise.all(
      references.map((reference) => {
        const delivery = paystack.chargeWebhook(reference);
        return app.inject({
          method: 'POST',
          url: '/api/v1/payment/webhook/paystack',
          headers: delivery.headers,
          payload: delivery.body,
        });
      }),
    );
    const rows = await app.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(rows.filter((row) => row.status === 'SUCCESS')).toHaveLength(5);
    expect(rows.filter((row) => row.status === 'REFUNDED')).toHaveLength(5);
    expect(await balanceOf(app.db, user.id)).toBe(500_000n);
    expect(paystack.refunds.filter((refund) => references.includes(refund.reference))).toHaveLength(
      5,
    );
    await expectLedgerOk(app.db, [user.id]);
  });

  it('20 paid plays fired at once against a ₦1,000 daily spend limit: exactly 5 are charged', async () => {
    const app = await buildTestApp(database());
    const plan = await createPlan(app.db, { gamesPerDay: null });
    const player = await createPlayer(app.db, { kobo: 10_000_000n, planId: plan.id });
    const headers = await bearerFor(app, player);
    await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers,
      payload: { kind: 'spend', period: 'day', amount: 1000 },
    });
    const games = await Promise.all(
      Array.from({ length: 20 }, () =>
        createGame(app.db, { entryFee: 20_000n, reward: 0n, maximumPlayers: 50 }),
      ),
    );
    const responses = await Promise.all(
      games.map((game) =>
        app.inject({
          method: 'POST',
          url: '/api/v1/game/play',
          headers,
          payload: { gameID: game.id, submittedAnswer: 'all at once' },
        }),
      ),
    );
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(5);
    for (const response of responses.filter((r) => r.statusCode !== 201))
      expect(response.json().message).toMatch(
        /^You have reached your daily spend limit of ₦1,000\./,
      );
    const entries = await app.db
      .select()
      .from(gameEntries)
      .where(eq(gameEntries.userId, player.id));
    expect(entries).toHaveLength(5);
    expect(await balanceOf(app.db, player.id)).toBe(10_000_000n - 100_000n);
    await expectLedgerOk(app.db, [player.id]);
  });
});
