import { koboToNaira } from '../../../shared/money.ts';
import type { Settings } from '../../../shared/schemas/settings.ts';
import type { Database } from '../../db/client.ts';
import { readSettingsRow } from '../../db/seed.ts';

export async function getSettings(db: Database): Promise<Settings> {
  const row = await readSettingsRow(db);
  return {
    withdrawalTransactionFee: koboToNaira(row.withdrawalTransactionFee),
    minimumPaymentAmount: koboToNaira(row.minimumPaymentAmount),
    dailyGameLimit: row.dailyGameLimit,
    tournamentLaunchAt: row.tournamentLaunchAt?.toISOString() ?? null,
  };
}
