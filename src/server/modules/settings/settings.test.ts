import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { settingsSchema } from '../../../shared/schemas/settings.ts';
import { settings } from '../../db/schema.ts';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';

const database = testDatabasePerFile();
/** One app for the tests that need no environment or clock of their own. */
const fileApp = testAppPerFile(database);

describe('GET /api/v1/settings', () => {
  it('answers the seeded settings in naira, without a token', async () => {
    const app = fileApp();

    const response = await app.inject({ url: '/api/v1/settings' });

    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['data']);
    expect(settingsSchema.strict().parse(body.data)).toEqual({
      withdrawalTransactionFee: 50,
      minimumPaymentAmount: 100,
      dailyGameLimit: 5,
      tournamentLaunchAt: '2025-09-21T23:00:00.000Z',
    });
  });

  it('stores kobo and converts to naira on the way out', async () => {
    const app = fileApp();
    const [row] = await app.db.select().from(settings).where(eq(settings.id, 1));
    expect(row?.withdrawalTransactionFee).toBe(5000n);
    expect(row?.minimumPaymentAmount).toBe(10000n);
  });
});
