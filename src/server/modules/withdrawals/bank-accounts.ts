import { and, eq, isNull } from 'drizzle-orm';
import { PAYMENT_MESSAGES } from '../../../shared/messages.ts';
import type { Database } from '../../db/client.ts';
import { banks, users } from '../../db/schema.ts';
import { badRequest, notFound } from '../../errors.ts';
import { type PaymentProvider, ProviderError } from '../../providers/payments/types.ts';
import type { AuthContext } from '../auth/service.ts';
import { proveOwner, type StepUpProof } from '../auth/step-up.ts';
import { isValidNuban } from './nuban.ts';

export const BANK_ACCOUNT_MESSAGES = {
  invalidAccount: 'Enter a valid 10-digit account number for this bank',
  unknownBank: 'Choose a bank from the list',
  unverifiable: 'We could not verify this account number with the bank. Check it and try again.',
} as const;

/**
 * Checks the NUBAN and asks the payout provider whose account it is, so the player sees the
 * name before anything is saved (and saving uses the same answer).
 */
export async function resolveBankAccount(
  db: Database,
  provider: PaymentProvider | null,
  userId: string,
  input: { bankID: string; accountNumber: string },
) {
  // Never sandboxed when Paystack is not live: there is simply no one to ask.
  if (!provider) throw badRequest(PAYMENT_MESSAGES.payoutsNotAvailable);
  const [bank] = /^[0-9a-f-]{36}$/i.test(input.bankID)
    ? await db.select().from(banks).where(eq(banks.id, input.bankID))
    : [];
  if (!bank) throw badRequest(BANK_ACCOUNT_MESSAGES.unknownBank);
  if (!isValidNuban(input.accountNumber, bank.code))
    throw badRequest(BANK_ACCOUNT_MESSAGES.invalidAccount);
  const [user] = await db
    .select({ fullname: users.fullname, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound('User not found');
  try {
    const { accountName } = await provider.resolveAccount(
      input.accountNumber,
      bank.code,
      user.fullname,
    );
    return { bank, accountName, email: user.email };
  } catch (error) {
    if (error instanceof ProviderError) throw badRequest(BANK_ACCOUNT_MESSAGES.unverifiable);
    throw error;
  }
}

/**
 * Where withdrawals go is as sensitive as the password: with a stolen token alone, replacing
 * the account would send the owner's money elsewhere. The first account needs no proof
 * (there is nothing to divert yet); replacing one needs the owner's (step-up.ts). Checked
 * before the bank is asked, so guesses cost no provider calls.
 */
export async function proveReplacementAllowed(
  ctx: AuthContext,
  userId: string,
  input: { bankID: string; accountNumber: string } & StepUpProof,
): Promise<void> {
  const [account] = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      passwordHash: users.passwordHash,
      bankId: users.bankId,
      bankAccountNumber: users.bankAccountNumber,
    })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
    .limit(1);
  if (!account) throw notFound('User not found');
  const hasAccount = account.bankId !== null && account.bankAccountNumber !== null;
  const sameAccount =
    account.bankId === input.bankID && account.bankAccountNumber === input.accountNumber;
  if (hasAccount && !sameAccount) await proveOwner(ctx, account, input);
}
