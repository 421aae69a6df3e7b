import { describe, expect, it } from 'vitest';
import { type AmlFacts, depositWithLittlePlay, holdReasonsFor } from './aml-rules.ts';

/** The rules are pure: their edges, in kobo, without a database (the flows: aml-holds.test.ts). */
const quiet: AmlFacts = {
  amount: 100_000n,
  threshold: 10_000_000n,
  deposits: 0n,
  entryFees: 0n,
  winnings: 0n,
  smallTopUps: 0,
  paidToAccountBefore: true,
};

describe('AML rules', () => {
  it('hold nothing on a quiet withdrawal to an account paid before', () => {
    expect(holdReasonsFor(quiet)).toEqual([]);
  });

  it('deposit then withdraw: winnings must cover half, recent top-ups must reach half', () => {
    const topped = { ...quiet, deposits: 200_000n };
    expect(depositWithLittlePlay(topped)).toBe(true);
    // Winnings of exactly half the withdrawal: it is half winnings, not mostly deposits.
    expect(depositWithLittlePlay({ ...topped, winnings: 50_000n })).toBe(false);
    expect(depositWithLittlePlay({ ...topped, winnings: 49_999n })).toBe(true);
    // Top-ups below half the withdrawal cannot be what it mostly draws on.
    expect(depositWithLittlePlay({ ...topped, deposits: 49_999n })).toBe(false);
    expect(depositWithLittlePlay({ ...topped, deposits: 50_000n })).toBe(true);
    // 20% of the top-ups played is enough play.
    expect(depositWithLittlePlay({ ...topped, entryFees: 40_000n })).toBe(false);
    expect(depositWithLittlePlay({ ...topped, entryFees: 39_999n })).toBe(true);
  });

  it('report every matching rule, in a fixed order', () => {
    expect(
      holdReasonsFor({
        ...quiet,
        amount: 10_000_000n,
        deposits: 10_000_000n,
        smallTopUps: 5,
        paidToAccountBefore: false,
      }),
    ).toEqual(['deposit_little_play', 'small_top_ups', 'large_amount', 'new_payout_account']);
    expect(holdReasonsFor({ ...quiet, amount: 9_999_999n, smallTopUps: 4 })).toEqual([]);
  });
});
