import { VALIDATION_MESSAGES, WALLET_MESSAGES } from '@shared/messages.ts';
import type { Validator } from '@web/lib/schema-form.ts';
import { parseAmount } from './amount.ts';

export interface WithdrawLimits {
  balance: number;
  fee: number;
  minimum: number;
  hasBankAccount: boolean;
}

export type WithdrawCheck = { ok: true; amount: number } | { ok: false; error: string };

/** What leaves the wallet for a withdrawal of `amount`: the amount and the fee, at once. */
export function totalDebit(amount: number, fee: number): number {
  return amount + fee;
}

/**
 * docs/product.md#validation: an amount is required ('Enter amount to withdraw') and is sent as a number. The
 * server's rules of docs/product.md#money (minimum, amount + fee within the balance, a saved bank account)
 * are checked here too, in the server's words, so the player hears about them at once.
 */
export function checkWithdrawal(rawAmount: string, limits: WithdrawLimits): WithdrawCheck {
  const amount = parseAmount(rawAmount);
  if (amount <= 0) return { ok: false, error: VALIDATION_MESSAGES.withdrawalAmount };
  if (amount < limits.minimum)
    return { ok: false, error: WALLET_MESSAGES.minimumWithdrawal(limits.minimum) };
  const total = totalDebit(amount, limits.fee);
  if (total > limits.balance) {
    return { ok: false, error: WALLET_MESSAGES.insufficientForWithdrawal(total, limits.fee) };
  }
  if (!limits.hasBankAccount) return { ok: false, error: WALLET_MESSAGES.noBankAccount };
  return { ok: true, amount };
}

/**
 * checkWithdrawal as the schema form's validator. Until the settings and the player are known
 * there are no limits to check against, and the form does not submit.
 */
export function withdrawalValidator(limits: WithdrawLimits | null): Validator<number> {
  return {
    safeParse(input) {
      if (!limits) return { success: false, error: { issues: [] } };
      const check = checkWithdrawal((input as { amount: string }).amount, limits);
      return check.ok
        ? { success: true, data: check.amount }
        : { success: false, error: { issues: [{ path: ['amount'], message: check.error }] } };
    },
  };
}
