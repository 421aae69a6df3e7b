import { and, eq, gte, sql } from 'drizzle-orm';
import { AML_LIMITS, type HoldReasonCode } from '../../../shared/aml.ts';
import { nairaToKobo } from '../../../shared/money.ts';
import type { Executor } from '../../db/client.ts';
import { gameEntries, gameWinners, payments, withdrawals } from '../../db/schema.ts';

/**
 * Anti-money-laundering rules, run when a withdrawal is requested (inside its transaction).
 * Each rule is a pure function of the facts below; the matching rules' codes are stored in
 * withdrawals.hold_reasons, and an operator must write a review note to approve it.
 *
 * No rule looks at cards: the providers' verification answers we keep (VerifiedPayment) carry
 * no card fingerprint, so "many small top-ups from new cards" is judged on the top-ups' number
 * and size alone.
 */
export interface AmlFacts {
  /** The withdrawal's amount (kobo, without the fee). */
  amount: bigint;
  /** settings.aml_review_threshold (kobo). */
  threshold: bigint;
  /** Successful top-ups settled in the last `lookbackDays` (kobo). */
  deposits: bigint;
  /** Entry fees paid in the same period, refunded ones left out (kobo). */
  entryFees: bigint;
  /** Prizes won on entries made in the same period (kobo). */
  winnings: bigint;
  /** Successful top-ups under `smallTopUpNaira` settled in the last `smallTopUpHours`. */
  smallTopUps: number;
  /** Whether an earlier withdrawal of this player to this very account was paid. */
  paidToAccountBefore: boolean;
}

/**
 * Deposit then withdraw with little play: in the lookback period the player topped up D, paid
 * S in entry fees and won W. It fires when S < 20% of D (the money was hardly played) and the
 * withdrawal is mostly not winnings but could be those top-ups: W < half of it, D ≥ half of it.
 * Whole kobo arithmetic, no rounding.
 */
export function depositWithLittlePlay(facts: AmlFacts): boolean {
  const { deposits, entryFees, winnings, amount } = facts;
  if (deposits <= 0n) return false;
  const littlePlay = entryFees * 100n < deposits * BigInt(AML_LIMITS.minPlayPercent);
  return littlePlay && winnings * 2n < amount && deposits * 2n >= amount;
}

export const manySmallTopUps = (facts: AmlFacts) => facts.smallTopUps >= AML_LIMITS.smallTopUpCount;

export const atOrAboveThreshold = (facts: AmlFacts) => facts.amount >= facts.threshold;

/** The first payout to an account (a new one, or one just changed to) is looked at by a person. */
export const newPayoutAccount = (facts: AmlFacts) => !facts.paidToAccountBefore;

const RULES: Record<HoldReasonCode, (facts: AmlFacts) => boolean> = {
  deposit_little_play: depositWithLittlePlay,
  small_top_ups: manySmallTopUps,
  large_amount: atOrAboveThreshold,
  new_payout_account: newPayoutAccount,
};

/** The codes of every rule the facts match, in a fixed order (empty: not held). */
export function holdReasonsFor(facts: AmlFacts): HoldReasonCode[] {
  return (Object.keys(RULES) as HoldReasonCode[]).filter((code) => RULES[code](facts));
}

const HOUR_MS = 3_600_000;

/**
 * Three small queries, each on the player's own index (payments_user_idx, game_entries_user_idx,
 * withdrawals_user_idx): a player's rows, never a table scan.
 */
export async function gatherAmlFacts(
  tx: Executor,
  input: {
    userId: string;
    amount: bigint;
    threshold: bigint;
    bankCode: string;
    accountNumber: string;
    now: Date;
  },
): Promise<AmlFacts> {
  const since = new Date(input.now.getTime() - AML_LIMITS.lookbackDays * 24 * HOUR_MS);
  const smallSince = new Date(input.now.getTime() - AML_LIMITS.smallTopUpHours * HOUR_MS);
  const small = nairaToKobo(AML_LIMITS.smallTopUpNaira);
  // One after another: they share the transaction's single connection anyway.
  const topUps = await tx
    .select({
      deposits: sql<string>`coalesce(sum(${payments.amount}), 0)`,
      smallTopUps: sql<number>`count(*) FILTER (WHERE ${payments.settledAt} >= ${smallSince.toISOString()}::timestamptz AND ${payments.amount} < ${small}::bigint)::int`,
    })
    .from(payments)
    .where(
      and(
        eq(payments.userId, input.userId),
        eq(payments.status, 'SUCCESS'),
        gte(payments.settledAt, since),
      ),
    );
  const play = await tx
    .select({
      entryFees: sql<string>`coalesce(sum(${gameEntries.amountPaid}) FILTER (WHERE NOT ${gameEntries.refunded}), 0)`,
      // A winner's entry is never refunded (a refund cancels its game, which has no winners).
      winnings: sql<string>`coalesce(sum(${gameWinners.prize}), 0)`,
    })
    .from(gameEntries)
    .leftJoin(
      gameWinners,
      and(eq(gameWinners.gameId, gameEntries.gameId), eq(gameWinners.entryId, gameEntries.id)),
    )
    .where(and(eq(gameEntries.userId, input.userId), gte(gameEntries.createdAt, since)));
  const paid = await tx
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.userId, input.userId),
        eq(withdrawals.bankCode, input.bankCode),
        eq(withdrawals.accountNumber, input.accountNumber),
        eq(withdrawals.status, 'SUCCESSFUL'),
      ),
    )
    .limit(1);
  return {
    amount: input.amount,
    threshold: input.threshold,
    deposits: BigInt(topUps[0]?.deposits ?? 0),
    entryFees: BigInt(play[0]?.entryFees ?? 0),
    winnings: BigInt(play[0]?.winnings ?? 0),
    smallTopUps: Number(topUps[0]?.smallTopUps ?? 0),
    paidToAccountBefore: paid.length > 0,
  };
}
