import { z } from 'zod';
import {
  EXCLUSION_DURATIONS,
  type ExclusionDuration,
  IDENTITY_KEY_KINDS,
  LIMIT_KINDS,
  LIMIT_MAX_NAIRA,
  LIMIT_PERIODS,
  RESPONSIBLE_PLAY_MESSAGES as M,
  REALITY_CHECK_CHOICES,
} from '../responsible-play.ts';
import { nairaSchema, timestampSchema } from './common.ts';

export const limitKindSchema = z.enum(LIMIT_KINDS, { error: M.limitKind });
export const limitPeriodSchema = z.enum(LIMIT_PERIODS, { error: M.limitPeriod });

/** One limit as the page shows it: what applies now, what is used, and a waiting change. */
export const playLimitSchema = z.object({
  kind: limitKindSchema,
  period: limitPeriodSchema,
  /** Naira; null: no limit. */
  amount: nairaSchema.nullable(),
  /** Counted in the current period: completed and pending top-ups, or entry fees paid. */
  used: nairaSchema,
  remaining: nairaSchema.nullable(),
  periodStart: timestampSchema,
  /** When the count starts again (Lagos midnight; Monday for weeks, the 1st for months). */
  periodEnd: timestampSchema,
  /** A raise or removal waiting out its 24 hours: `amount` null means the limit goes. */
  pending: z.object({ amount: nairaSchema.nullable(), from: timestampSchema }).nullable(),
});
export type PlayLimit = z.infer<typeof playLimitSchema>;

export const exclusionKindSchema = z.enum(['timeout', 'self_exclusion']);
export const playExclusionSchema = z.object({
  id: z.string(),
  kind: exclusionKindSchema,
  startsAt: timestampSchema,
  endsAt: timestampSchema,
  liftedAt: timestampSchema.nullable(),
  liftedReason: z.string().nullable(),
});
export type PlayExclusion = z.infer<typeof playExclusionSchema>;

export const responsiblePlaySchema = z.object({
  limits: z.array(playLimitSchema),
  /** The time-out or self-exclusion running now, if any. */
  exclusion: playExclusionSchema.nullable(),
  realityCheckMinutes: z.number().int().nullable(),
  marketingEmails: z.boolean(),
});
export type ResponsiblePlay = z.infer<typeof responsiblePlaySchema>;

export const setLimitBodySchema = z.object({
  kind: limitKindSchema,
  period: limitPeriodSchema,
  /** Whole naira; null removes the limit (after 24 hours). */
  amount: z
    .number({ error: M.limitAmount })
    .int(M.limitAmount)
    .positive(M.limitAmount)
    .max(LIMIT_MAX_NAIRA, M.limitTooLarge)
    .nullable(),
});
export type SetLimitBody = z.infer<typeof setLimitBodySchema>;

export const exclusionDurationSchema = z.enum(
  Object.keys(EXCLUSION_DURATIONS) as [ExclusionDuration, ...ExclusionDuration[]],
  { error: M.exclusionDuration },
);
export const startExclusionBodySchema = z.object({
  duration: exclusionDurationSchema,
  /** The page asks first: a break cannot be undone. */
  confirm: z.literal(true, { error: M.exclusionConfirm }),
});
export type StartExclusionBody = z.infer<typeof startExclusionBodySchema>;

export const preferencesBodySchema = z
  .object({
    realityCheckMinutes: z
      .literal(REALITY_CHECK_CHOICES, { error: M.realityCheck })
      .nullable()
      .optional(),
    marketingEmails: z.boolean().optional(),
  })
  .refine((body) => body.realityCheckMinutes !== undefined || body.marketingEmails !== undefined, {
    error: M.preferencesEmpty,
  });
export type PreferencesBody = z.infer<typeof preferencesBodySchema>;

export const realityCheckSchema = z.object({
  /** null: the player has not asked for reminders. */
  intervalMinutes: z.number().int().nullable(),
  /** When this sign-in started (the session). */
  sessionStartedAt: timestampSchema,
  minutesPlayed: z.number().int(),
  /** Entry fees paid in this session, net of refunds (naira). */
  spent: nairaSchema,
  /** Prizes won in this session (naira). */
  won: nairaSchema,
  /** won − spent. */
  net: nairaSchema,
});
export type RealityCheck = z.infer<typeof realityCheckSchema>;

export const statementMonthSchema = z.object({
  /** YYYY-MM, Lagos time. */
  month: z.string(),
  deposits: nairaSchema,
  entryFees: nairaSchema,
  winnings: nairaSchema,
  withdrawals: nairaSchema,
  /** Plans, operator adjustments and anything else that moved the wallet. */
  other: nairaSchema,
  /** What the wallet gained (or lost) over the month: deposits − fees + winnings − withdrawals + other. */
  net: nairaSchema,
});
export type StatementMonth = z.infer<typeof statementMonthSchema>;
export const statementSchema = z.object({ months: z.array(statementMonthSchema) });
export type Statement = z.infer<typeof statementSchema>;

export const liftExclusionBodySchema = z.object({
  reason: z
    .string({ error: M.liftReason })
    .trim()
    .min(10, M.liftReason)
    .max(500, M.liftReasonTooLong),
});

/**
 * Another account of the same person, as a break bound them: either this account is held to
 * that account's break, or that account to this one's.
 */
export const linkedAccountSchema = z.object({
  userId: z.string(),
  /** Without the public `plucker_` prefix, as the console's user pages show it. */
  handle: z.string(),
  email: z.string(),
  /** Whether the break is this account's own (the other is held to it) or the other's. */
  heldByThisAccountsBreak: z.boolean(),
  /** The identity keys the two accounts share. */
  matchedOn: z.array(z.enum(IDENTITY_KEY_KINDS)),
  kind: exclusionKindSchema,
  boundAt: timestampSchema,
  endsAt: timestampSchema,
  liftedAt: timestampSchema.nullable(),
});
export type LinkedAccount = z.infer<typeof linkedAccountSchema>;

/** The operator's view of one player (console user page). */
export const adminResponsiblePlaySchema = responsiblePlaySchema.extend({
  exclusions: z.array(playExclusionSchema.extend({ liftedBy: z.string().nullable() })),
  linkedAccounts: z.array(linkedAccountSchema),
});
export type AdminResponsiblePlay = z.infer<typeof adminResponsiblePlaySchema>;
