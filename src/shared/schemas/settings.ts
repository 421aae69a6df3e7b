import { z } from 'zod';
import { nairaSchema } from './common.ts';

export const settingsSchema = z.object({
  withdrawalTransactionFee: nairaSchema,
  minimumPaymentAmount: nairaSchema,
  dailyGameLimit: z.number().int(),
  tournamentLaunchAt: z.string().nullable(),
});
export type Settings = z.infer<typeof settingsSchema>;
