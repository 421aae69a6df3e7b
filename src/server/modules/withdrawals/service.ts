import { and, count, desc, eq } from 'drizzle-orm';
import { WITHDRAWAL_PROCESSING_TEXT } from '../../../shared/constants.ts';
import { WALLET_PATH } from '../../../shared/games.ts';
import { WALLET_MESSAGES } from '../../../shared/messages.ts';
import { koboToNaira, nairaToKobo } from '../../../shared/money.ts';
import type { Withdrawal } from '../../../shared/schemas/wallet.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { banks, users, withdrawals } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest } from '../../errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { MailMessage } from '../../providers/mail.ts';
import type { PaymentProvider } from '../../providers/payments/types.ts';
import { type Actor, lockLiveAccount } from '../auth/live-account.ts';
import { assertPayoutNameMatches, assertWithdrawalAllowed } from '../kyc/caps.ts';
import { notify } from '../notifications/service.ts';
import { readSettingsRow } from '../settings/service.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';
import { gatherAmlFacts, holdReasonsFor } from './aml-rules.ts';
import { resolveBankAccount } from './bank-accounts.ts';
import { money, toApi } from './serialize.ts';
import { insertWithShortReference } from './short-reference.ts';

/**
 * Withdrawals, the player's side: saving a payout account, asking for a withdrawal (the amount
 * and fee reserved at once, the AML rules judged in the same transaction) and listing them.
 * Operators decide in decisions.ts; money leaves through transfers.ts.
 */

export const WITHDRAWAL_PAGE_SIZE = 10;

export const WITHDRAWAL_MESSAGES = {
  requested: 'Withdrawal requested. It will be processed within 24–48 hours.',
  bankSaved: 'Bank account saved',
  notPending: 'This withdrawal has already been processed',
  noPayoutProvider:
    'Payouts through Paystack are not available on this server (no PAYSTACK_SECRET_KEY). Pay it by bank transfer and mark it paid with the transfer reference.',
} as const;

type BankAccountMail = (to: string, account: string) => MailMessage;

/**
 * Saves where withdrawals go. The owner is told in the app and by e-mail, in words that fit:
 * the first account was added, a later one changed where the money goes.
 */
export async function saveBankAccount(
  db: Database,
  provider: PaymentProvider | null,
  sendMail: (message: MailMessage) => Promise<boolean>,
  mails: { added: BankAccountMail; changed: BankAccountMail },
  userId: string,
  input: { bankID: string; accountNumber: string },
) {
  const { bank, accountName, email } = await resolveBankAccount(db, provider, userId, input);
  // After tier 2 the money may only go to an account in the verified name.
  await assertPayoutNameMatches(db, userId, accountName);
  const [before] = await db
    .select({ bankId: users.bankId })
    .from(users)
    .where(eq(users.id, userId));
  const first = !before?.bankId;
  await db
    .update(users)
    .set({ bankId: bank.id, bankAccountNumber: input.accountNumber, bankAccountName: accountName })
    .where(eq(users.id, userId));
  const account = `${accountName}, ${bank.bankName} ${input.accountNumber}`;
  await notify(
    db,
    userId,
    first ? 'Bank account added' : 'Bank account updated',
    `Withdrawals now go to ${account}.`,
    WALLET_PATH,
  );
  await sendMail((first ? mails.added : mails.changed)(email, account));
  return { bankID: bank.id, accountNumber: input.accountNumber, accountName };
}

/**
 * Reserves amount + fee from the wallet at once (one conditional debit) and records a PENDING
 * withdrawal. Safe to retry with the same Idempotency-Key: the first request's result is returned.
 */
export async function requestWithdrawal(
  db: Database,
  actor: Actor,
  amountNaira: number,
  idempotencyKey: string | null,
  now: Date,
): Promise<{ withdrawal: Withdrawal; replayed: boolean }> {
  const userId = actor.id;
  if (idempotencyKey) {
    const [existing] = await db
      .select()
      .from(withdrawals)
      .where(and(eq(withdrawals.userId, userId), eq(withdrawals.idempotencyKey, idempotencyKey)));
    if (existing) return { withdrawal: toApi(existing), replayed: true };
  }
  const settings = await readSettingsRow(db);
  const amount = nairaToKobo(amountNaira);
  if (amount < settings.minimumPaymentAmount)
    throw badRequest(WALLET_MESSAGES.minimumWithdrawal(koboToNaira(settings.minimumPaymentAmount)));
  const fee = settings.withdrawalTransactionFee;

  try {
    const row = await inTransaction(db, async (tx) => {
      await lockLiveAccount(tx, actor, now);
      const [user] = await tx
        .select({
          bankId: users.bankId,
          number: users.bankAccountNumber,
          name: users.bankAccountName,
          bankName: banks.bankName,
          bankCode: banks.code,
        })
        .from(users)
        .leftJoin(banks, eq(banks.id, users.bankId))
        .where(eq(users.id, userId));
      if (!user?.bankId || !user.number || !user.bankCode || !user.bankName)
        throw badRequest(WALLET_MESSAGES.noBankAccount);
      // KYC: the tier's daily cap and, from tier 2, a payout account in the verified name.
      await assertWithdrawalAllowed(tx, userId, amount, user.name, now);
      // Judged under the account lock, so two racing requests see each other's top-ups and plays.
      const holdReasons = holdReasonsFor(
        await gatherAmlFacts(tx, {
          userId,
          amount,
          threshold: settings.amlReviewThreshold,
          bankCode: user.bankCode,
          accountNumber: user.number,
          now,
        }),
      );
      const values = {
        userId,
        amount,
        fee,
        bankCode: user.bankCode,
        bankName: user.bankName,
        accountNumber: user.number,
        accountName: user.name ?? '',
        idempotencyKey,
        holdReasons,
      };
      const created = await insertWithShortReference(async (shortReference) => {
        const [row] = await tx
          .insert(withdrawals)
          .values({ ...values, shortReference })
          // Only a taken short reference is skipped; a repeated idempotency key still throws.
          .onConflictDoNothing({ target: withdrawals.shortReference })
          .returning();
        return row;
      });
      await post(
        tx,
        {
          kind: 'withdrawal',
          reference: `withdrawal:${created.id}`,
          description: `Withdrawal to ${user.bankName} ${user.number}`,
          lines: [
            { account: ACCOUNTS.wallet, userId, amount: -(amount + fee) },
            { account: ACCOUNTS.payoutClearing, amount },
            { account: ACCOUNTS.withdrawalFees, amount: fee },
          ],
        },
        {
          insufficientMessage: WALLET_MESSAGES.insufficientForWithdrawal(
            koboToNaira(amount + fee),
            koboToNaira(fee),
          ),
        },
      );
      await notify(
        tx,
        userId,
        'Withdrawal requested',
        `${money(amount)} to ${user.bankName} ${user.number} is pending. ${WITHDRAWAL_PROCESSING_TEXT}`,
        WALLET_PATH,
      );
      return created;
    });
    return { withdrawal: toApi(row), replayed: false };
  } catch (error) {
    if (idempotencyKey && isUniqueViolation(error)) {
      const [existing] = await db
        .select()
        .from(withdrawals)
        .where(and(eq(withdrawals.userId, userId), eq(withdrawals.idempotencyKey, idempotencyKey)));
      if (existing) return { withdrawal: toApi(existing), replayed: true };
    }
    throw error;
  }
}

export async function listWithdrawals(db: Database, userId: string, page: number) {
  const mine = eq(withdrawals.userId, userId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(withdrawals)
      .where(mine)
      .orderBy(desc(withdrawals.createdAt))
      .limit(WITHDRAWAL_PAGE_SIZE)
      .offset((page - 1) * WITHDRAWAL_PAGE_SIZE),
    db.select({ total: count() }).from(withdrawals).where(mine),
  ]);
  return {
    withdrawals: rows.map(toApi),
    pagination: paginate(total?.total ?? 0, page, WITHDRAWAL_PAGE_SIZE),
  };
}
