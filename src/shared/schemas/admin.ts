import { z } from 'zod';
import { holdReasonSchema } from '../aml.ts';
import { GAME_STATUSES, GAME_TYPES, WITHDRAWAL_STATUSES } from '../constants.ts';
import { pageQuerySchema, pageSchema } from './common.ts';
import { gameSchema } from './games.ts';
import { planSchema } from './plans.ts';
import { userSchema } from './users.ts';
import { withdrawalSchema } from './wallet.ts';

const REASON_TOO_LONG = 'Give a reason of at most 300 characters';
/** Kobo are what is stored: a positive amount below half a kobo would be stored as nothing. */
const atLeastOneKobo = (naira: number) => Math.round(naira * 100) >= 1;

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
  categoryID: z.uuid({ error: 'Choose a category' }).optional(),
  page: pageQuerySchema.shape.page,
});
/** The server filters on `type` TOURNAMENT only; the other list types order players' lists. */
export type AdminGameFilters = z.output<typeof adminGameListQuerySchema>;

export const cancelGameBodySchema = z.object({
  reason: z
    .string({ error: 'Give a reason' })
    .trim()
    .min(3, 'Give a reason of at least 3 characters')
    .max(300, REASON_TOO_LONG),
});

export const adminUserQuerySchema = z.object({
  q: z.string().max(100, 'Search for at most 100 characters').trim().optional(),
  page: pageQuerySchema.shape.page,
});

export const suspendBodySchema = z.object({
  reason: z
    .string({ error: 'Give a reason' })
    .trim()
    .min(3, 'Give a reason of at least 3 characters')
    .max(300, REASON_TOO_LONG),
});

export const adjustmentBodySchema = z.object({
  /** Naira; positive credits the wallet, negative debits it. */
  amount: z
    .number({ error: 'Amount must be a number' })
    // Less than a kobo would round to nothing: as good as zero.
    .refine((value) => Math.round(value * 100) !== 0, 'Amount cannot be zero')
    .refine((value) => Math.abs(value) <= 10_000_000, 'Amount is too large'),
  reason: z
    .string({ error: 'Give a reason' })
    .trim()
    .min(5, 'Give a reason of at least 5 characters')
    .max(300, REASON_TOO_LONG),
});

const MAX_CAP = 1_000_000_000;

/** A tier cap in naira: above zero, or null for no cap. */
const tierCap = (label: string) =>
  z
    .number({ error: `${label} must be a number, or empty for no cap` })
    .refine(atLeastOneKobo, `${label} must be above zero (leave it empty for no cap)`)
    .max(MAX_CAP, `${label} must be at most ₦1,000,000,000`)
    .nullable()
    .optional();

type CapValues = Partial<
  Record<`tier${1 | 2 | 3}${'BalanceCap' | 'DailyWithdrawalCap'}`, number | null>
>;

/**
 * A higher tier never has a lower cap than the tier below it (null is "no cap", the highest).
 * Checked by the form on what it sends and by the server on the settings it would store.
 */
export function tierCapOrderIssue(values: CapValues): { path: string; message: string } | null {
  const kinds = [
    ['BalanceCap', 'balance cap'],
    ['DailyWithdrawalCap', 'daily withdrawal cap'],
  ] as const;
  for (const [kind, label] of kinds) {
    for (const tier of [2, 3] as const) {
      const lower = values[`tier${(tier - 1) as 1 | 2}${kind}`];
      const higher = values[`tier${tier}${kind}`];
      if (lower === undefined || higher === undefined) continue;
      if (lower === null ? higher !== null : higher !== null && higher < lower)
        return {
          path: `tier${tier}${kind}`,
          message: `The tier ${tier} ${label} must be at least the tier ${tier - 1} one`,
        };
    }
  }
  return null;
}

export const settingsBodySchema = z
  .object({
    withdrawalTransactionFee: z
      .number({ error: 'Withdrawal fee must be a number' })
      .min(0, 'Withdrawal fee cannot be negative')
      .max(100_000, 'Withdrawal fee must be at most ₦100,000'),
    minimumPaymentAmount: z
      .number({ error: 'Minimum payment must be a number' })
      .positive('Minimum payment must be above zero')
      .refine(atLeastOneKobo, 'Minimum payment must be above zero')
      .max(1_000_000, 'Minimum payment must be at most ₦1,000,000'),
    dailyGameLimit: z
      .number({ error: 'Daily game limit must be a number' })
      .int('Daily game limit must be a whole number')
      .min(1, 'Daily game limit must be at least 1')
      .max(1000, 'Daily game limit must be at most 1000'),
    tournamentLaunchAt: z.iso
      .datetime({ offset: true, error: 'Launch date must be a date and time' })
      .nullable(),
    // KYC tier caps and the AML threshold: optional so older clients that send only the four
    // fields above keep working (absent: unchanged).
    tier1BalanceCap: tierCap('Tier 1 balance cap'),
    tier1DailyWithdrawalCap: tierCap('Tier 1 daily withdrawal cap'),
    tier2BalanceCap: tierCap('Tier 2 balance cap'),
    tier2DailyWithdrawalCap: tierCap('Tier 2 daily withdrawal cap'),
    tier3BalanceCap: tierCap('Tier 3 balance cap'),
    tier3DailyWithdrawalCap: tierCap('Tier 3 daily withdrawal cap'),
    amlReviewThreshold: z
      .number({ error: 'AML review threshold must be a number' })
      .refine(atLeastOneKobo, 'AML review threshold must be above zero')
      .max(MAX_CAP, 'AML review threshold must be at most ₦1,000,000,000')
      .optional(),
  })
  .superRefine((body, context) => {
    const issue = tierCapOrderIssue(body);
    if (issue) context.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  });

/**
 * One emoji as players see it: a pictograph (with its variation selector, skin tone and
 * zero-width-joined parts, e.g. 👩🏾‍🍳) or a flag (two regional indicators), and nothing else.
 */
const SINGLE_EMOJI =
  /^(?:\p{Regional_Indicator}{2}|[\p{Extended_Pictographic}\p{Emoji_Presentation}]\uFE0F?\p{Emoji_Modifier}?(?:\u200D[\p{Extended_Pictographic}\p{Emoji_Presentation}]\uFE0F?\p{Emoji_Modifier}?)*)$/u;

export const categoryBodySchema = z.object({
  title: z
    .string({ error: 'Enter a title' })
    .trim()
    .min(2, 'Title must be at least 2 characters')
    .max(60, 'Title must be at most 60 characters'),
  emoji: z
    .string({ error: 'Choose an emoji' })
    .trim()
    .min(1, 'Choose an emoji')
    .max(16, 'Use a single emoji')
    .regex(SINGLE_EMOJI, 'Use a single emoji'),
});

export const planBodySchema = z.object({
  planName: z
    .string({ error: 'Enter a plan name' })
    .trim()
    .min(2, 'Plan name must be at least 2 characters')
    .max(40, 'Plan name must be at most 40 characters'),
  amountPerDay: z
    .number({ error: 'Daily amount must be a number' })
    .positive('Daily amount must be above zero')
    .refine(atLeastOneKobo, 'Daily amount must be above zero')
    .max(1_000_000, 'Daily amount must be at most ₦1,000,000'),
  isActive: z.boolean().default(true),
  features: z.object({
    getVerifiedBadge: z.boolean(),
    gamesPerDay: z
      .number({ error: 'Games per day must be a whole number' })
      .int('Games per day must be a whole number')
      .min(1, 'Games per day must be at least 1')
      .max(1000, 'Games per day must be at most 1000')
      .nullable(),
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

/** Marking a sandbox top-up reviewed: the note says what was done (e.g. the adjustment taken). */
export const sandboxReviewBodySchema = z.object({
  note: z
    .string({ error: 'Write a note of what was done' })
    .trim()
    .min(5, 'Write a note of at least 5 characters')
    .max(500, 'The note must be at most 500 characters'),
});
export type SandboxReviewBody = z.infer<typeof sandboxReviewBodySchema>;

export const sandboxPaymentSchema = z.object({
  reference: z.string(),
  userId: z.string(),
  username: z.string(),
  method: z.string(),
  amount: z.number(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewNote: z.string().nullable(),
});
export type SandboxPayment = z.infer<typeof sandboxPaymentSchema>;

export const sandboxPaymentListSchema = z.object({
  /** Whether this server runs the sandbox now (then sandbox top-ups are expected). */
  sandbox: z.boolean(),
  /** Live system with unreviewed sandbox money: every payout is refused until it is reviewed. */
  blocksPayouts: z.boolean(),
  unreviewed: z.number().int(),
  payments: z.array(sandboxPaymentSchema),
});
export type SandboxPaymentList = z.infer<typeof sandboxPaymentListSchema>;

/** Releasing or returning a held payment: the operator's reason, kept on it and in the audit. */
export const holdDecisionBodySchema = z.object({
  note: z
    .string({ error: 'Give the reason for the decision' })
    .trim()
    .min(10, 'Give the reason for the decision (at least 10 characters)')
    .max(500, 'The reason must be at most 500 characters'),
});
export type HoldDecisionBody = z.infer<typeof holdDecisionBodySchema>;

/** A payment that landed past the player's deposit limit: on hold, released or returned. */
export const heldPaymentSchema = z.object({
  reference: z.string(),
  userId: z.string(),
  username: z.string(),
  method: z.string(),
  amount: z.number(),
  status: z.enum(['held', 'released', 'refunded']),
  /** Why it was held, as the player was told. */
  reason: z.string(),
  heldAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolutionNote: z.string().nullable(),
  /** Whether returning it goes through the provider's refund (else it is returned by hand). */
  canRefund: z.boolean(),
  /** checkout: a top-up the player started; bank_transfer: money sent to their account number. */
  channel: z.enum(['checkout', 'bank_transfer']),
  /** A bank transfer's sender and their bank, as the provider reported them (who gets it back). */
  senderName: z.string().nullable(),
  senderBank: z.string().nullable(),
});
export type HeldPayment = z.infer<typeof heldPaymentSchema>;

export const heldPaymentListSchema = z.object({
  /** How many are on hold now. */
  held: z.number().int(),
  payments: z.array(heldPaymentSchema),
});
export type HeldPaymentList = z.infer<typeof heldPaymentListSchema>;

// What the operator routes answer: shared so the console reads the same shapes the server's
// serializer enforces and the OpenAPI document shows.

export const adminUserRowSchema = z.object({
  id: z.string(),
  handle: z.string(),
  /** The public username, the name the rest of the console uses for the player. */
  username: z.string(),
  fullname: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  role: z.string(),
  accountBalance: z.number(),
  suspended: z.boolean(),
  createdAt: z.string(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminUserPageSchema = pageSchema('users', adminUserRowSchema);
export type AdminUserPage = z.infer<typeof adminUserPageSchema>;

/** One player as the console's user page shows them: the newest 100 of each history. */
export const adminUserDetailSchema = z.object({
  user: userSchema,
  suspendedReason: z.string().nullable(),
  ledger: z.array(
    z.object({
      id: z.number(),
      kind: z.string(),
      description: z.string(),
      amount: z.number(),
      createdAt: z.string(),
    }),
  ),
  plays: z.array(
    z.object({
      gameTitle: z.string(),
      answer: z.string(),
      amountPaid: z.number(),
      isWinner: z.boolean().nullable(),
      createdAt: z.string(),
    }),
  ),
  payments: z.array(
    z.object({
      reference: z.string(),
      method: z.string(),
      /** live, or sandbox (test money) */
      mode: z.string(),
      amount: z.number(),
      status: z.string(),
      createdAt: z.string(),
    }),
  ),
  withdrawals: z.array(
    z.object({
      id: z.string(),
      amount: z.number(),
      fee: z.number(),
      status: z.string(),
      /** Anti-money-laundering rules that held it for review (empty: none). */
      holdReasons: z.array(holdReasonSchema),
      createdAt: z.string(),
    }),
  ),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

/** The wallet after a manual adjustment. */
export const adjustmentResultSchema = z.object({ accountBalance: z.number() });
export type AdjustmentResult = z.infer<typeof adjustmentResultSchema>;

export const adminGamePageSchema = pageSchema('games', gameSchema);
export type AdminGamePage = z.infer<typeof adminGamePageSchema>;

/** Operators see every plan, the withdrawn ones too. */
export const adminPlanSchema = planSchema.extend({ isActive: z.boolean() });
export type AdminPlan = z.infer<typeof adminPlanSchema>;

export const sandboxReviewResultSchema = z.object({
  reference: z.string(),
  reviewedAt: z.string(),
});
export type SandboxReviewResult = z.infer<typeof sandboxReviewResultSchema>;

export const adminEntrySchema = z.object({
  entryId: z.number().int(),
  userId: z.string(),
  /** The public username (`plucker_…` without the badge), as the draw proof names players. */
  username: z.string(),
  fullname: z.string(),
  answer: z.string(),
  amountPaid: z.number(),
  isWinner: z.boolean().nullable(),
  refunded: z.boolean(),
  createdAt: z.string(),
});
export type AdminEntry = z.infer<typeof adminEntrySchema>;

export const adminWithdrawalSchema = z.object({
  id: z.string(),
  /** The provider transfer's reference (`wd-<id>`). */
  reference: z.string(),
  /** The reference on the player's receipt and e-mails (shared/short-reference.ts). */
  shortReference: z.string(),
  userId: z.string(),
  username: z.string(),
  amount: z.number(),
  fee: z.number(),
  status: z.enum(WITHDRAWAL_STATUSES),
  bankName: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
  reason: z.string().nullable(),
  /** Anti-money-laundering rules that held it for review (empty: not held); src/shared/aml.ts. */
  holdReasons: z.array(holdReasonSchema),
  createdAt: z.string(),
});
export type AdminWithdrawal = z.infer<typeof adminWithdrawalSchema>;

export const adminWithdrawalQuerySchema = pageQuerySchema.extend({
  status: z.enum(WITHDRAWAL_STATUSES).optional(),
  /** `true`: only withdrawals held for review. */
  held: z.enum(['true', 'false'], { error: 'held must be true or false' }).optional(),
  /**
   * A reference a player read out: the short one (any case, spaces or hyphens) or the long
   * `wd-<id>`; only that withdrawal is listed.
   */
  reference: z.string().trim().max(60, 'reference must be at most 60 characters').optional(),
});

export const adminWithdrawalPageSchema = pageSchema('withdrawals', adminWithdrawalSchema);
export type AdminWithdrawalPage = z.infer<typeof adminWithdrawalPageSchema>;

/** An approved withdrawal, with its status as the queue shows it (the player's `status` folds some). */
export const approvedWithdrawalSchema = withdrawalSchema.extend({ internalStatus: z.string() });
export type ApprovedWithdrawal = z.infer<typeof approvedWithdrawalSchema>;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  /** The operator's e-mail; null for what the system did by itself (a break bound to an account). */
  admin: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  /** Snapshots of the record as it was and became: any JSON, bigints (kobo) as strings. */
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditPageSchema = pageSchema('entries', auditEntrySchema);
export type AuditPage = z.infer<typeof auditPageSchema>;

/** One ledger invariant (docs/architecture.md#where-money-moves) and up to 50 rows that break it, as the database returns them. */
export const ledgerInvariantSchema = z.object({
  name: z.string(),
  description: z.string(),
  ok: z.boolean(),
  offending: z.array(z.record(z.string(), z.unknown())),
});
export type LedgerInvariant = z.infer<typeof ledgerInvariantSchema>;

export const ledgerCheckSchema = z.object({
  ok: z.boolean(),
  invariants: z.array(ledgerInvariantSchema),
});
export type LedgerCheck = z.infer<typeof ledgerCheckSchema>;

export const reportTotalsSchema = z.object({
  /** Live top-ups only: real money. */
  deposits: z.number(),
  /** Top-ups through the payments sandbox: test money, never counted as deposits. */
  sandboxDeposits: z.number(),
  entryFees: z.number(),
  prizesPaid: z.number(),
  refunds: z.number(),
  planRevenue: z.number(),
  withdrawalFees: z.number(),
  withdrawalsPaid: z.number(),
  adjustments: z.number(),
  /** Entry fees + plan revenue + withdrawal fees − prizes − adjustments. */
  houseMargin: z.number(),
});
export type ReportTotals = z.infer<typeof reportTotalsSchema>;

export const reportSchema = z.object({
  from: z.string(),
  to: z.string(),
  totals: reportTotalsSchema,
  daily: z.array(
    z.object({
      day: z.string(),
      deposits: z.number(),
      sandboxDeposits: z.number(),
      prizes: z.number(),
      margin: z.number(),
    }),
  ),
  ledger: ledgerCheckSchema,
  /**
   * Withdrawals requested in the range that anti-money-laundering rules held for review, per
   * reason (one withdrawal counts under each of its reasons); `pending`: still undecided.
   */
  holds: z.array(
    holdReasonSchema.extend({
      withdrawals: z.number().int(),
      amount: z.number(),
      pending: z.number().int(),
    }),
  ),
});
export type Report = z.infer<typeof reportSchema>;
