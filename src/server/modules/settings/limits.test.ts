import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { adminAudit } from '../../db/schema.ts';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createAdmin, createUser } from '../../test/factories.ts';

/**
 * KYC tier caps and the AML threshold in the operators' settings. Test files share the settings
 * row on PostgreSQL, so what is saved here is what was there: refusals are the point.
 */
const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

const BASE = {
  withdrawalTransactionFee: 50,
  minimumPaymentAmount: 100,
  dailyGameLimit: 5,
  tournamentLaunchAt: '2025-09-21T23:00:00.000Z',
};
const DEFAULT_LIMITS = {
  tier1BalanceCap: 300_000,
  tier1DailyWithdrawalCap: 50_000,
  tier2BalanceCap: 500_000,
  tier2DailyWithdrawalCap: 200_000,
  tier3BalanceCap: null,
  tier3DailyWithdrawalCap: 5_000_000,
  amlReviewThreshold: 100_000,
};
/**
 * Read beside the limits: where account numbers for transfers are made (the bank-transfer tests
 * switch it for a moment, and files share one PostgreSQL).
 */
const READ_BACK = { ...BASE, ...DEFAULT_LIMITS, bankTransferProvider: expect.any(String) };

async function setup() {
  const app = fileApp();
  const admin = await createAdmin(app.db);
  return { app, admin, headers: await bearerFor(app, admin) };
}

describe('tier caps and the AML threshold in Settings', () => {
  it('operators read them (players and the public settings do not see them)', async () => {
    const { app, headers } = await setup();
    const response = await app.inject({ url: '/api/v1/admin/settings', headers });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual(READ_BACK);
    const player = await bearerFor(app, await createUser(app.db));
    expect((await app.inject({ url: '/api/v1/admin/settings', headers: player })).statusCode).toBe(
      403,
    );
    const open = (await app.inject({ url: '/api/v1/settings' })).json().data;
    expect(open).not.toHaveProperty('amlReviewThreshold');
    expect(open).not.toHaveProperty('tier1BalanceCap');
  });

  it('saves them with the rest, audited, naira in and out', async () => {
    const { app, admin, headers } = await setup();
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/v1/admin/settings',
      headers,
      payload: { ...BASE, ...DEFAULT_LIMITS },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toEqual(READ_BACK);
    const [audit] = await app.db
      .select()
      .from(adminAudit)
      .where(eq(adminAudit.adminId, admin.id))
      .orderBy(desc(adminAudit.createdAt));
    expect(audit?.action).toBe('settings.update');
    expect(audit?.after).toMatchObject({
      tier1BalanceCap: '30000000',
      amlReviewThreshold: '10000000',
    });
  });

  it('refuses caps that are not positive, too large, or lower than the tier below', async () => {
    const { app, headers } = await setup();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ tier1BalanceCap: 0 }, 'Tier 1 balance cap must be above zero (leave it empty for no cap)'],
      [
        { tier2DailyWithdrawalCap: -5 },
        'Tier 2 daily withdrawal cap must be above zero (leave it empty for no cap)',
      ],
      [{ tier3BalanceCap: 2e9 }, 'Tier 3 balance cap must be at most ₦1,000,000,000'],
      [{ tier1BalanceCap: '300000' }, 'Tier 1 balance cap must be a number, or empty for no cap'],
      [{ amlReviewThreshold: 0 }, 'AML review threshold must be above zero'],
      [{ amlReviewThreshold: null }, 'AML review threshold must be a number'],
      [
        { tier1BalanceCap: 300_000, tier2BalanceCap: 200_000 },
        'The tier 2 balance cap must be at least the tier 1 one',
      ],
      [
        { tier2DailyWithdrawalCap: null, tier3DailyWithdrawalCap: 10_000 },
        'The tier 3 daily withdrawal cap must be at least the tier 2 one',
      ],
      // Against what is stored: tier 1 may not rise above the stored tier 2 (₦500,000).
      [{ tier1BalanceCap: 600_000 }, 'The tier 2 balance cap must be at least the tier 1 one'],
      [
        { tier2DailyWithdrawalCap: 40_000 },
        'The tier 2 daily withdrawal cap must be at least the tier 1 one',
      ],
    ];
    for (const [change, message] of cases) {
      const response = await app.inject({
        method: 'PUT',
        url: '/api/v1/admin/settings',
        headers,
        payload: { ...BASE, ...change },
      });
      expect(response.json(), JSON.stringify(change)).toEqual({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message,
      });
    }
    const after = await app.inject({ url: '/api/v1/admin/settings', headers });
    expect(after.json().data).toEqual(READ_BACK);
  });
});
