import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { banks, users } from '../../db/schema.ts';
import { badRequest, notFound } from '../../errors.ts';
import { type PaymentProvider, ProviderError } from '../../providers/payments/types.ts';
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
  provider: PaymentProvider,
  userId: string,
  input: { bankID: string; accountNumber: string },
) {
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
