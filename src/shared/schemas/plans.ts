import { z } from 'zod';
import { VALIDATION_MESSAGES } from '../messages.ts';
import { nairaSchema } from './common.ts';

export const planFeaturesSchema = z.object({
  getVerifiedBadge: z.boolean(),
  /** null = unlimited */
  gamesPerDay: z.number().int().nullable(),
  tournamentAccess: z.boolean(),
  earlyTournamentInvite: z.boolean(),
  priorityLeaderboardPlacement: z.boolean(),
  showAds: z.boolean(),
});
export type PlanFeatures = z.infer<typeof planFeaturesSchema>;

export const planSchema = z.object({
  id: z.string(),
  planName: z.string(),
  amountPerDay: nairaSchema,
  weeklyPrice: nairaSchema,
  features: planFeaturesSchema,
});
export type Plan = z.infer<typeof planSchema>;

export const subscribeParamsSchema = z.object({
  id: z
    .string({ error: VALIDATION_MESSAGES.planId })
    .min(1, VALIDATION_MESSAGES.planId)
    .max(100, VALIDATION_MESSAGES.planId),
});
