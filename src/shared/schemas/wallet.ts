import { z } from 'zod';
import { reviewNoteSchema } from '../aml.ts';
import { TOPUP_MAX_NAIRA, WITHDRAWAL_MAX_NAIRA } from '../constants.ts';
import { VALIDATION_MESSAGES } from '../messages.ts';
import { formatNaira } from '../money.ts';
import { nairaSchema, pageSchema, timestampSchema } from './common.ts';

export const PAYMENT_METHODS = ['transactpay', 'paystack', 'flutterwave'] as const;
export const paymentMethodSchema = z.enum(PAYMENT_METHODS, {
  error: VALIDATION_MESSAGES.paymentMethod,
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/**
 * A method as a client may name it in `POST /payment/{method}`, read as the method itself: an
 * existing client spells Flutterwave `fultterwave`, and it must not be turned away for it.
 */
export const paymentMethodNameSchema = z
  .enum([...PAYMENT_METHODS, 'fultterwave'], { error: VALIDATION_MESSAGES.paymentMethod })
  .transform((name): PaymentMethod => (name === 'fultterwave' ? 'flutterwave' : name));

/**
 * How a method runs on this server: `live` (the real provider), `sandbox` (the server's own
 * test checkout, no real money; then every method is sandboxed) or `unavailable`.
 */
export const paymentModeSchema = z.enum(['live', 'sandbox', 'unavailable']);
export type PaymentMode = z.infer<typeof paymentModeSchema>;

/** GET /payment/methods: public, so every page can show the sandbox banner. */
export const paymentMethodsSchema = z.object({
  sandbox: z.boolean(),
  methods: z.array(z.object({ method: paymentMethodSchema, mode: paymentModeSchema })),
  /** Bank-account name checks and payouts (Paystack). */
  payouts: paymentModeSchema,
});
export type PaymentMethods = z.infer<typeof paymentMethodsSchema>;

/**
 * A player's amount: bounded, so every accepted amount is a whole number of kobo that a number
 * and a bigint column hold exactly (1e308 naira is a clear 400, not BigInt(Infinity)).
 */
const amountSchema = (message: string, maximum: number, tooLarge: string) =>
  z.number({ error: message }).finite(message).positive(message).max(maximum, tooLarge);

export const topUpBodySchema = z.object({
  amount: amountSchema(
    VALIDATION_MESSAGES.topupAmount,
    TOPUP_MAX_NAIRA,
    `The maximum top-up is ${formatNaira(TOPUP_MAX_NAIRA)}`,
  ),
});
export const topUpResponseSchema = z.object({ paymentUrl: z.string(), reference: z.string() });
export type TopUpCheckout = z.infer<typeof topUpResponseSchema>;

export const paymentSchema = z.object({
  id: z.string(),
  reference: z.string(),
  amount: nairaSchema,
  paymentMethod: z.string(),
  /** successful, failed, pending; held or refunded when it landed past a deposit limit. */
  status: z.string(),
  /** Where the money of a held or refunded top-up is, in the words the player was told. */
  note: z.string().nullable().optional(),
  /** checkout: a top-up the player started; bank_transfer: money sent to their account number. */
  channel: z.enum(['checkout', 'bank_transfer']).optional(),
  /** A bank transfer's sender and their bank, as the provider reported them. */
  senderName: z.string().nullable().optional(),
  senderBank: z.string().nullable().optional(),
  createdAt: timestampSchema,
});
export type Payment = z.infer<typeof paymentSchema>;

/** The providers that give players account numbers for top-ups by bank transfer. */
export const BANK_TRANSFER_PROVIDERS = ['paystack', 'flutterwave'] as const;
export const bankTransferProviderSchema = z.enum(BANK_TRANSFER_PROVIDERS);
export type BankTransferProvider = z.infer<typeof bankTransferProviderSchema>;

/**
 * GET /payment/bank-transfer/account: the caller's account number for top-ups by bank transfer
 * at the provider the operator picked, or what stands before getting one.
 */
export const bankTransferAccountSchema = z.object({
  /** False when the picked provider runs neither live nor in the sandbox. */
  available: z.boolean(),
  provider: bankTransferProviderSchema,
  mode: paymentModeSchema,
  /** The provider makes the account only for a BVN: the player types theirs to get one. */
  needsBvn: z.boolean(),
  /** Set when the player must reach this KYC tier first (the provider needs a verified BVN). */
  requiresKycTier: z.literal(2).nullable(),
  account: z
    .object({ accountNumber: z.string(), accountName: z.string(), bankName: z.string() })
    .nullable(),
});
export type BankTransferAccount = z.infer<typeof bankTransferAccountSchema>;

const bvnSchema = z
  .string({ error: 'Enter your BVN' })
  .max(11, 'A BVN is 11 digits')
  .regex(/^\d{11}$/, 'A BVN is 11 digits');
/** POST /payment/bank-transfer/account: the BVN only where the provider needs one. */
export const bankTransferAccountBodySchema = z.object({ bvn: bvnSchema.optional() });
/** The wallet's form when the provider needs a BVN. */
export const bankTransferBvnSchema = z.object({ bvn: bvnSchema });
export const paymentPageSchema = pageSchema('payments', paymentSchema);
export type PaymentPage = z.infer<typeof paymentPageSchema>;

/** GET /payment/status/{reference}: one of the caller's top-ups. */
export const paymentReferenceParamsSchema = z.object({ reference: z.string().min(1).max(100) });
/**
 * A top-up as /PaymentStatus shows it: the status and the server's own sentence about it (what
 * landed, why it failed, or that it is still being confirmed).
 */
export const paymentOutcomeSchema = z.object({
  reference: z.string(),
  amount: nairaSchema,
  status: z.enum(['successful', 'failed', 'pending']),
  message: z.string(),
});
export type TopUpOutcome = z.infer<typeof paymentOutcomeSchema>;

export const withdrawalBodySchema = z.object({
  amount: amountSchema(
    VALIDATION_MESSAGES.withdrawalAmount,
    WITHDRAWAL_MAX_NAIRA,
    `The maximum withdrawal is ${formatNaira(WITHDRAWAL_MAX_NAIRA)}`,
  ),
});

export const withdrawalSchema = z.object({
  id: z.string(),
  /**
   * What the payout is sent under to the provider (`wd-<id>`), and what support could find a
   * withdrawal by before it had a short reference.
   */
  reference: z.string(),
  /**
   * What the receipt, the history and the e-mails show and the player reads out to support: ten
   * characters of Crockford base32 (shared/short-reference.ts), unique.
   */
  shortReference: z.string(),
  amount: nairaSchema,
  fee: nairaSchema,
  status: z.string(),
  /** Where the money goes, as saved when the withdrawal was requested (the receipt shows it). */
  bankName: z.string(),
  accountNumber: z.string(),
  accountName: z.string(),
  createdAt: timestampSchema,
});
export type Withdrawal = z.infer<typeof withdrawalSchema>;
export const withdrawalPageSchema = pageSchema('withdrawals', withdrawalSchema);
export type WithdrawalPage = z.infer<typeof withdrawalPageSchema>;

export const approveWithdrawalBodySchema = z.object({
  /** Set when the operator paid by hand: the bank's reference. Omit to pay through the provider. */
  paidReference: z
    .string()
    .trim()
    .min(3, 'Enter the payment reference')
    .max(100, 'The payment reference must be at most 100 characters')
    .optional(),
  /**
   * Why the operator pays it anyway: required when the withdrawal is held for review
   * (anti-money-laundering rules), optional otherwise; kept in the audit log.
   */
  reviewNote: reviewNoteSchema.optional(),
});
export const rejectWithdrawalBodySchema = z.object({
  reason: z
    .string({ error: 'Give a reason' })
    .trim()
    .min(3, 'Give a reason of at least 3 characters')
    .max(300, 'Give a reason of at most 300 characters'),
});

/**
 * What moved the wallet, in the few words the chart labels: each ledger kind that touches a
 * wallet is one of these (plans and operator credits included), so no movement goes unnamed.
 */
export const BALANCE_MOVEMENTS = [
  'top_up',
  'entry',
  'prize',
  'refund',
  'withdrawal',
  'plan',
  'adjustment',
] as const;
export const balanceMovementSchema = z.enum(BALANCE_MOVEMENTS);
export type BalanceMovement = z.infer<typeof balanceMovementSchema>;

/** The most postings GET /wallet/balance-history answers: the latest ones. */
export const BALANCE_HISTORY_POSTINGS = 60;

/** The wallet right after one ledger posting. */
export const balancePointSchema = z.object({
  at: timestampSchema,
  /** The wallet's balance once this posting was made. */
  balance: nairaSchema,
  /** What this posting added (positive) or took (negative). */
  change: nairaSchema,
  movement: balanceMovementSchema,
});
export type BalancePoint = z.infer<typeof balancePointSchema>;

/**
 * GET /wallet/balance-history: the caller's wallet after each of its latest postings, oldest
 * first, read from the ledger; the last point's balance is the wallet's balance now.
 */
export const balanceHistorySchema = z.object({
  points: z.array(balancePointSchema).max(BALANCE_HISTORY_POSTINGS),
  /** Older postings exist: the first point's balance before its change need not be ₦0. */
  hasEarlier: z.boolean(),
});
export type BalanceHistory = z.infer<typeof balanceHistorySchema>;
