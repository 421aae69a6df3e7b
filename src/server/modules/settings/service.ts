import { eq } from 'drizzle-orm';
import { koboToNaira } from '../../../shared/money.ts';
import type { AdminSettings, Settings } from '../../../shared/schemas/settings.ts';
import type { Database } from '../../db/client.ts';
import { settings } from '../../db/schema.ts';

export async function getSettings(db: Database): Promise<Settings> {
  const row = await readSettingsRow(db);
  return {
    withdrawalTransactionFee: koboToNaira(row.withdrawalTransactionFee),
    minimumPaymentAmount: koboToNaira(row.minimumPaymentAmount),
    dailyGameLimit: row.dailyGameLimit,
    tournamentLaunchAt: row.tournamentLaunchAt?.toISOString() ?? null,
  };
}

const capNaira = (kobo: bigint | null) => (kobo === null ? null : koboToNaira(kobo));

/**
 * Everything operators tune, the KYC tier caps and the AML review threshold included. Those
 * stay out of the public settings: a threshold known is a threshold withdrawn just under.
 */
export async function getAdminSettings(db: Database): Promise<AdminSettings> {
  const row = await readSettingsRow(db);
  return {
    ...(await getSettings(db)),
    tier1BalanceCap: capNaira(row.tier1BalanceCap),
    tier1DailyWithdrawalCap: capNaira(row.tier1DailyWithdrawalCap),
    tier2BalanceCap: capNaira(row.tier2BalanceCap),
    tier2DailyWithdrawalCap: capNaira(row.tier2DailyWithdrawalCap),
    tier3BalanceCap: capNaira(row.tier3BalanceCap),
    tier3DailyWithdrawalCap: capNaira(row.tier3DailyWithdrawalCap),
    amlReviewThreshold: koboToNaira(row.amlReviewThreshold),
    bankTransferProvider: row.bankTransferProvider,
  };
}

/** The operators' settings row (seeded on first start, see src/server/seed). */
export async function readSettingsRow(db: Database) {
  const [row] = await db.select().from(settings).where(eq(settings.id, 1)).limit(1);
  if (!row) throw new Error('settings row missing: the database was not seeded');
  return row;
}
