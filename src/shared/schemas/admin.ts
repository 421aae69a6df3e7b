import { z } from 'zod';
import { GAME_STATUSES, GAME_TYPES } from '../constants.ts';

const naira = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(100_000_000, `${label} is too large`);

/** Create or edit a game (operators). Amounts in naira; times ISO-8601. */
export const adminGameBodySchema = z
  .object({
    title: z
      .string({ error: 'Enter a title' })
      .trim()
      .min(3, 'Title must be at least 3 characters')
      .max(140, 'Title must be at most 140 characters'),
    description: z
      .string()
      .trim()
      .max(1000, 'Description must be at most 1000 characters')
      .default(''),
    categoryID: z.uuid({ error: 'Choose a category' }).nullable().default(null),
    entryFee: naira('Entry fee').default(0),
    reward: naira('Reward'),
    maximumPlayers: z
      .number({ error: 'Maximum players must be a number' })
      .int('Maximum players must be a whole number')
      .min(5, 'A game needs room for at least 5 players')
      .max(1_000_000, 'Maximum players is too large'),
    isTournament: z.boolean().default(false),
    startsAt: z.iso
      .datetime({ offset: true, error: 'Start time must be a date and time' })
      .nullable()
      .default(null),
    endsAt: z.iso
      .datetime({ offset: true, error: 'End time must be a date and time' })
      .nullable()
      .default(null),
  })
  .refine(
    (game) => !game.startsAt || !game.endsAt || new Date(game.endsAt) > new Date(game.startsAt),
    {
      message: 'The end time must be after the start time',
      path: ['endsAt'],
    },
  );
export type AdminGameBody = z.infer<typeof adminGameBodySchema>;

export const adminGameListQuerySchema = z.object({
  status: z.enum(GAME_STATUSES).optional(),
  type: z.enum(GAME_TYPES).optional(),
  categoryID: z.uuid().optional(),
  page: z.coerce.number().int().min(1).default(1),
});

export const cancelGameBodySchema = z.object({
  reason: z
    .string({ error: 'Give a reason' })
    .trim()
    .min(3, 'Give a reason of at least 3 characters')
    .max(300),
});

export const adminUserQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
});

export const suspendBodySchema = z.object({
  reason: z
    .string({ error: 'Give a reason' })
    .trim()
    .min(3, 'Give a reason of at least 3 characters')
    .max(300),
});

export const adjustmentBodySchema = z.object({
  /** Naira; positive credits the wallet, negative debits it. */
  amount: z
    .number({ error: 'Amount must be a number' })
    .refine((value) => value !== 0, 'Amount cannot be zero')
    .refine((value) => Math.abs(value) <= 10_000_000, 'Amount is too large'),
  reason: z
    .string({ error: 'Give a reason' })
    .trim()
    .min(5, 'Give a reason of at least 5 characters')
    .max(300),
});

export const settingsBodySchema = z.object({
  withdrawalTransactionFee: z
    .number({ error: 'Withdrawal fee must be a number' })
    .min(0, 'Withdrawal fee cannot be negative')
    .max(100_000),
  minimumPaymentAmount: z
    .number({ error: 'Minimum payment must be a number' })
    .positive('Minimum payment must be above zero')
    .max(1_000_000),
  dailyGameLimit: z
    .number({ error: 'Daily game limit must be a number' })
    .int('Daily game limit must be a whole number')
    .min(1, 'Daily game limit must be at least 1')
    .max(1000),
  tournamentLaunchAt: z.iso
    .datetime({ offset: true, error: 'Launch date must be a date and time' })
    .nullable(),
});

export const categoryBodySchema = z.object({
  title: z
    .string({ error: 'Enter a title' })
    .trim()
    .min(2, 'Title must be at least 2 characters')
    .max(60),
  emoji: z
    .string({ error: 'Choose an emoji' })
    .trim()
    .min(1, 'Choose an emoji')
    .max(16, 'Use a single emoji'),
});

export const planBodySchema = z.object({
  planName: z.string({ error: 'Enter a plan name' }).trim().min(2).max(40),
  amountPerDay: z
    .number({ error: 'Daily amount must be a number' })
    .positive('Daily amount must be above zero')
    .max(1_000_000),
  isActive: z.boolean().default(true),
  features: z.object({
    getVerifiedBadge: z.boolean(),
    gamesPerDay: z.number().int().min(1).nullable(),
    tournamentAccess: z.boolean(),
    earlyTournamentInvite: z.boolean(),
    priorityLeaderboardPlacement: z.boolean(),
    showAds: z.boolean(),
  }),
});

export const reportQuerySchema = z.object({
  from: z.iso.date({ error: 'from must be YYYY-MM-DD' }).optional(),
  to: z.iso.date({ error: 'to must be YYYY-MM-DD' }).optional(),
});
