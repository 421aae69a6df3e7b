import { VALIDATION_MESSAGES } from '@shared/messages.ts';
import { formatNaira } from '@shared/money.ts';
import { parseAmount } from './amount.ts';

export const NO_BANK_ACCOUNT_MESSAGE = 'Add a bank account before you withdraw';

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
    return { ok: false, error: `The minimum withdrawal is ${formatNaira(limits.minimum)}` };
  const total = totalDebit(amount, limits.fee);
  if (total > limits.balance) {
    return {
      ok: false,
      error: `Insufficient balance: this withdrawal needs ${formatNaira(total)} (including the ${formatNaira(limits.fee)} fee)`,
    };
  }
  if (!limits.hasBankAccount) return { ok: false, error: NO_BANK_ACCOUNT_MESSAGE };
  return { ok: true, amount };
}
