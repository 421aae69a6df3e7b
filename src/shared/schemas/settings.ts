import { z } from 'zod';
import { nairaSchema } from './common.ts';
import { bankTransferProviderSchema } from './wallet.ts';

export const settingsSchema = z.object({
  withdrawalTransactionFee: nairaSchema,
  minimumPaymentAmount: nairaSchema,
  dailyGameLimit: z.number().int(),
  tournamentLaunchAt: z.string().nullable(),
});
export type Settings = z.infer<typeof settingsSchema>;

/** Tier caps (naira; null: no cap) and the AML review threshold: operators only. */
export const limitSettingsSchema = z.object({
  tier1BalanceCap: nairaSchema.nullable(),
  tier1DailyWithdrawalCap: nairaSchema.nullable(),
  tier2BalanceCap: nairaSchema.nullable(),
  tier2DailyWithdrawalCap: nairaSchema.nullable(),
  tier3BalanceCap: nairaSchema.nullable(),
  tier3DailyWithdrawalCap: nairaSchema.nullable(),
  amlReviewThreshold: nairaSchema,
});
export type LimitSettings = z.infer<typeof limitSettingsSchema>;

export const adminSettingsSchema = settingsSchema.extend({
  ...limitSettingsSchema.shape,
  /** Where players' account numbers for top-ups by bank transfer are made. */
  bankTransferProvider: bankTransferProviderSchema,
});
export type AdminSettings = z.infer<typeof adminSettingsSchema>;

/** PUT /admin/settings/bank-transfer-provider: numbers already given out keep working. */
export const bankTransferProviderBodySchema = z.object({ provider: bankTransferProviderSchema });
