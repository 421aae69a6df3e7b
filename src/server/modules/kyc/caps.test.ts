import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KYC_MESSAGES } from '../../../shared/kyc.ts';
import { payments, users } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bankByCode,
  bearerFor,
  createAdmin,
  createPlayer,
  fundWallet,
  testClock,
  type UserRow,
  validNuban,
} from '../../test/factories.ts';
import { balanceOf } from '../../test/fake-money.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

/**
 * Tier caps (defaults: tier 1 holds ₦300,000 and withdraws ₦50,000 a Lagos day; tier 2
 * ₦500,000 and ₦200,000), enforced on top-ups before any provider is asked and on withdrawals
 * inside their transaction; and, from tier 2, payouts only to an account in the verified name.
 */
const database = testDatabasePerFile();
let paystack: FakePaystack;
beforeAll(async () => {
  paystack = await startFakePaystack();
});
afterAll(() => paystack.close());
const paystackApp = testAppPerFile(database, () => paystack.env);

const naira = (amount: number) => BigInt(amount) * 100n;

async function topUp(app: FastifyInstance, user: UserRow, amount: number) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/payment/paystack',
    headers: await bearerFor(app, user),
    payload: { amount },
  });
}

async function withdraw(app: FastifyInstance, user: UserRow, amount: number) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/withdrawal',
    headers: await bearerFor(app, user),
    payload: { amount },
  });
}

const paymentsOf = (app: FastifyInstance, userId: string) =>
  app.db.select().from(payments).where(eq(payments.userId, userId));

describe('the balance cap on top-ups', () => {
  it('refuses a top-up past the tier-1 cap before Paystack is asked, saying what to verify', async () => {
    const app = paystackApp();
    const player = await createPlayer(app.db, { kobo: naira(290_000) });
    const asked = paystack.requests.length;

    const refused = await topUp(app, player, 10_001);
    expect(refused.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message:
        'Tier 1 wallets can hold at most ₦300,000, and this top-up would take you above it. To raise the limit, verify your identity with your BVN or NIN (tier 2).',
    });
    expect(paystack.requests.length).toBe(asked);
    expect(await paymentsOf(app, player.id)).toEqual([]);

    // Up to the cap exactly is fine; while that checkout is open it counts as paid.
    expect((await topUp(app, player, 10_000)).statusCode).toBe(200);
    expect((await topUp(app, player, 100)).statusCode).toBe(400);
  });

  it('tier 2 and tier 3 have their own caps (tier 3: none by default)', async () => {
    const app = paystackApp();
    const tier2 = await createPlayer(app.db, { kobo: naira(290_000), overrides: { kycTier: 2 } });
    expect((await topUp(app, tier2, 200_000)).statusCode).toBe(200);
    const refused = await topUp(app, tier2, 210_001);
    expect(refused.json().message).toBe(
      'Tier 2 wallets can hold at most ₦500,000, and this top-up would take you above it. To raise the limit, upload an identity document for review (tier 3).',
    );
    const tier3 = await createPlayer(app.db, { kobo: naira(900_000), overrides: { kycTier: 3 } });
    expect((await topUp(app, tier3, 1_000_000)).statusCode).toBe(200);
  });

  it('winnings are never refused: a wallet above its cap keeps them, only top-ups wait', async () => {
    const app = paystackApp();
    const player = await createPlayer(app.db, { kobo: naira(299_000) });
    // A prize (any credit that is not a top-up) lands whatever the cap.
    await fundWallet(app.db, player.id, naira(5_000));
    expect(await balanceOf(app.db, player.id)).toBe(naira(304_000));
    expect((await topUp(app, player, 100)).statusCode).toBe(400);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });
});

describe('the daily withdrawal cap', () => {
  it('counts today’s withdrawals that have not failed, in Lagos days', async () => {
    const clock = testClock();
    const app = await buildTestApp(database(), paystack.env, { clock });
    const player = await createPlayer(app.db, { kobo: naira(200_000) });

    const first = await withdraw(app, player, 30_000);
    expect(first.statusCode, first.body).toBe(201);
    const refused = await withdraw(app, player, 25_000);
    expect(refused.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message:
        'Tier 1 accounts can withdraw at most ₦50,000 a day; ₦20,000 is left today. To raise the limit, verify your identity with your BVN or NIN (tier 2).',
    });
    expect(await balanceOf(app.db, player.id)).toBe(naira(200_000 - 30_000 - 50));
    expect((await withdraw(app, player, 20_000)).statusCode).toBe(201);

    // A rejected withdrawal is refunded and no longer counts.
    const admin = await bearerFor(app, await createAdmin(app.db));
    const rejected = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/withdrawals/${first.json().data.id}/reject`,
      headers: admin,
      payload: { reason: 'Testing the cap' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect((await withdraw(app, player, 30_000)).statusCode).toBe(201);
    expect((await withdraw(app, player, 100)).statusCode).toBe(400);

    // The next Lagos day starts afresh.
    clock.advance(24 * 3_600_000);
    expect((await withdraw(app, player, 50_000)).statusCode).toBe(201);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('tier 2 may withdraw more in a day; above it the message names the next step', async () => {
    const app = paystackApp();
    const player = await createPlayer(app.db, {
      kobo: naira(400_000),
      overrides: { kycTier: 2, verifiedName: 'Ada Obi', verifiedBirthDate: '1990-05-14' },
    });
    expect((await withdraw(app, player, 150_000)).statusCode).toBe(201);
    const refused = await withdraw(app, player, 60_000);
    expect(refused.json().message).toBe(
      'Tier 2 accounts can withdraw at most ₦200,000 a day; ₦50,000 is left today. To raise the limit, upload an identity document for review (tier 3).',
    );
  });
});

describe('payout account in the verified name (tier 2+)', () => {
  async function verifiedPlayer(app: FastifyInstance, bankAccountName: string) {
    return createPlayer(app.db, {
      kobo: naira(10_000),
      overrides: {
        kycTier: 2,
        verifiedName: 'Ada Ngozi Okafor',
        verifiedBirthDate: '1990-05-14',
        bankAccountName,
      },
    });
  }

  async function saveAccount(app: FastifyInstance, user: UserRow, accountName: string) {
    const bank = await bankByCode(app.db, '044');
    const accountNumber = validNuban('044');
    paystack.addAccount('044', accountNumber, accountName);
    return app.inject({
      method: 'POST',
      url: '/api/v1/bank-account',
      headers: await bearerFor(app, user),
      payload: { bankID: bank.id, accountNumber, password: 'irrelevant-for-a-first-account' },
    });
  }

  it('refuses to save an account in another name, accepts one in the verified name', async () => {
    const app = paystackApp();
    const player = await createPlayer(app.db, {
      bank: null,
      overrides: { kycTier: 2, verifiedName: 'Ada Ngozi Okafor', verifiedBirthDate: '1990-05-14' },
    });
    const other = await saveAccount(app, player, 'JOHN DOE');
    expect(other.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: KYC_MESSAGES.bankNameMismatch('Ada Ngozi Okafor'),
    });
    const [unchanged] = await app.db.select().from(users).where(eq(users.id, player.id));
    expect(unchanged?.bankAccountNumber).toBeNull();

    const own = await saveAccount(app, player, 'OKAFOR ADA N');
    expect(own.statusCode, own.body).toBe(200);
  });

  it('an account that stopped matching at verification blocks withdrawals until replaced', async () => {
    const app = paystackApp();
    const player = await verifiedPlayer(app, 'JOHN DOE');
    const refused = await withdraw(app, player, 1_000);
    expect(refused.json()).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: KYC_MESSAGES.withdrawalBankMismatch('Ada Ngozi Okafor'),
    });
    const status = await app.inject({ url: '/api/v1/kyc', headers: await bearerFor(app, player) });
    expect(status.json().data.bankAccountMatches).toBe(false);

    const matching = await verifiedPlayer(app, 'ADA OKAFOR');
    expect((await withdraw(app, matching, 1_000)).statusCode).toBe(201);
  });
});
