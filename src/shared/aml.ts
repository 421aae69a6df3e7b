import { z } from 'zod';
import { formatNaira } from './money.ts';

/**
 * Anti-money-laundering holds on withdrawals: the rules' limits, the stable codes stored in
 * withdrawals.hold_reasons, and the texts operators read. Players never see any of it (a held
 * withdrawal looks like any pending one), so nobody learns which pattern to avoid.
 */
export const AML_LIMITS = {
  /** Deposit-then-withdraw looks back this many days. */
  lookbackDays: 30,
  /** Entry fees under this share of the period's top-ups count as "little play". */
  minPlayPercent: 20,
  /** A top-up under this many naira is "small". */
  smallTopUpNaira: 2_000,
  /** This many small successful top-ups… */
  smallTopUpCount: 5,
  /** …within this many hours before the withdrawal. */
  smallTopUpHours: 24,
} as const;

export const HOLD_REASON_CODES = [
  'deposit_little_play',
  'small_top_ups',
  'large_amount',
  'new_payout_account',
] as const;
export type HoldReasonCode = (typeof HOLD_REASON_CODES)[number];

const HOLD_REASON_TEXTS: Record<HoldReasonCode, string> = {
  deposit_little_play: `Deposit then withdraw with little play: in the last ${AML_LIMITS.lookbackDays} days entry fees were under ${AML_LIMITS.minPlayPercent}% of top-ups, and winnings cover less than half of this withdrawal`,
  small_top_ups: `Many small top-ups: ${AML_LIMITS.smallTopUpCount} or more successful top-ups under ${formatNaira(AML_LIMITS.smallTopUpNaira)} in the ${AML_LIMITS.smallTopUpHours} hours before`,
  large_amount: 'Large amount: at or above the review threshold in Settings',
  new_payout_account:
    'New payout account: nothing has been paid to this bank account for this player before',
};

/** A few words for the queue's rows; the full text is in the decision dialogs. */
const HOLD_REASON_LABELS: Record<HoldReasonCode, string> = {
  deposit_little_play: 'Little play',
  small_top_ups: 'Small top-ups',
  large_amount: 'Large amount',
  new_payout_account: 'New account',
};

export function holdReasonLabel(code: string): string {
  return HOLD_REASON_LABELS[code as HoldReasonCode] ?? code;
}

/** The operator's text for a stored code; a code this version does not know is shown as is. */
export function holdReasonText(code: string): string {
  return HOLD_REASON_TEXTS[code as HoldReasonCode] ?? code;
}

export const holdReasonSchema = z.object({ code: z.string(), text: z.string() });
export type HoldReason = z.infer<typeof holdReasonSchema>;

export const holdReasonsOf = (codes: readonly string[]): HoldReason[] =>
  codes.map((code) => ({ code, text: holdReasonText(code) }));

export const AML_MESSAGES = {
  held: 'Held for review',
  reviewNoteRequired:
    'This withdrawal is held for review: write a review note saying why it may be paid',
} as const;

/** What the operator writes when approving a held withdrawal; kept in the audit log. */
export const reviewNoteSchema = z
  .string({ error: 'Write a review note' })
  .trim()
  .min(3, 'Write a review note of at least 3 characters')
  .max(500, 'Write a review note of at most 500 characters');
