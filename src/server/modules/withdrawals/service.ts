import { and, count, desc, eq, sql } from 'drizzle-orm';
import { formatNaira, koboToNaira, nairaToKobo } from '../../../shared/money.ts';
import type { Withdrawal } from '../../../shared/schemas/wallet.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { banks, users, withdrawals } from '../../db/schema.ts';
import { readSettingsRow } from '../../db/seed.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { MailMessage } from '../../providers/mail.ts';
import type { PaymentProvider } from '../../providers/payments/types.ts';
import { ProviderError } from '../../providers/payments/types.ts';
import { notify } from '../notifications/service.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';
import { isValidNuban } from './nuban.ts';

export const WITHDRAWAL_PAGE_SIZE = 10;

export const WITHDRAWAL_MESSAGES = {
  noBankAccount: 'Add a bank account before you withdraw',
  requested: 'Withdrawal requested. It will be processed within 24–48 hours.',
  invalidAccount: 'Enter a valid 10-digit account number for this bank',
  unknownBank: 'Choose a bank from the list',
  bankSaved: 'Bank account saved',
  notPending: 'This withdrawal has already been processed',
} as const;

const money = (kobo: bigint) => formatNaira(koboToNaira(kobo));

export async function saveBankAccount(
  db: Database,
  provider: PaymentProvider,
  sendMail: (message: MailMessage) => Promise<boolean>,
  mailFor: (to: string, account: string) => MailMessage,
  userId: string,
  input: { bankID: string; accountNumber: string },
) {
  const [bank] = /^[0-9a-f-]{36}$/i.test(input.bankID)
    ? await db.select().from(banks).where(eq(banks.id, input.bankID))
    : [];
  if (!bank) throw badRequest(WITHDRAWAL_MESSAGES.unknownBank);
  if (!isValidNuban(input.accountNumber, bank.code))
    throw badRequest(WITHDRAWAL_MESSAGES.invalidAccount);
  const [user] = await db
    .select({ fullname: users.fullname, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound('User not found');
  let accountName: string;
  try {
    ({ accountName } = await provider.resolveAccount(
      input.accountNumber,
      bank.code,
      user.fullname,
    ));
  } catch (error) {
    if (error instanceof ProviderError)
      throw badRequest(
        'We could not verify this account number with the bank. Check it and try again.',
      );
    throw error;
  }
  await db
    .update(users)
    .set({ bankId: bank.id, bankAccountNumber: input.accountNumber, bankAccountName: accountName })
    .where(eq(users.id, userId));
  await notify(
    db,
    userId,
    'Bank account updated',
    `Withdrawals now go to ${accountName}, ${bank.bankName} ${input.accountNumber}.`,
  );
  await sendMail(mailFor(user.email, `${accountName}, ${bank.bankName} ${input.accountNumber}`));
  return { bankID: bank.id, accountNumber: input.accountNumber, accountName };
}

function toApi(row: typeof withdrawals.$inferSelect): Withdrawal {
  const status = {
    PENDING: 'pending',
    PROCESSING: 'processing',
    SUCCESSFUL: 'successful',
    FAILED: 'failed',
    REJECTED: 'failed',
  }[row.status];
  return {
    id: row.id,
    amount: koboToNaira(row.amount),
    fee: koboToNaira(row.fee),
    status,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Reserves amount + fee from the wallet at once (one conditional debit) and records a PENDING
 * withdrawal. Safe to retry with the same Idempotency-Key: the first request's result is returned.
 */
export async function requestWithdrawal(
  db: Database,
  userId: string,
  amountNaira: number,
  idempotencyKey: string | null,
): Promise<{ withdrawal: Withdrawal; replayed: boolean }> {
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
    throw badRequest(`The minimum withdrawal is ${money(settings.minimumPaymentAmount)}`);
  const fee = settings.withdrawalTransactionFee;

  try {
    const row = await inTransaction(db, async (tx) => {
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
        throw badRequest(WITHDRAWAL_MESSAGES.noBankAccount);
      const [created] = await tx
        .insert(withdrawals)
        .values({
          userId,
          amount,
          fee,
          bankCode: user.bankCode,
          bankName: user.bankName,
          accountNumber: user.number,
          accountName: user.name ?? '',
          idempotencyKey,
        })
        .returning();
      if (!created) throw new Error('withdrawal insert returned nothing');
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
          insufficientMessage: `Insufficient balance: this withdrawal needs ${money(amount + fee)} (including the ${money(fee)} fee)`,
        },
      );
      await notify(
        tx,
        userId,
        'Withdrawal requested',
        `${money(amount)} to ${user.bankName} ${user.number} is pending. Withdrawals are processed within 24–48 hours.`,
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

/** Returns the reserved money (amount + fee) to the wallet; used by rejections and failed transfers. */
async function refund(
  tx: Parameters<Parameters<Database['transaction']>[0]>[0],
  row: typeof withdrawals.$inferSelect,
  why: string,
) {
  await post(tx, {
    kind: 'withdrawal_refund',
    reference: `withdrawal-refund:${row.id}`,
    description: `Withdrawal ${row.id} refunded: ${why}`,
    lines: [
      { account: ACCOUNTS.payoutClearing, amount: -row.amount },
      { account: ACCOUNTS.withdrawalFees, amount: -row.fee },
      { account: ACCOUNTS.wallet, userId: row.userId, amount: row.amount + row.fee },
    ],
  });
}

export async function rejectWithdrawal(
  db: Database,
  adminId: string,
  withdrawalId: string,
  reason: string,
  now: Date,
) {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(withdrawals)
      .set({ status: 'REJECTED', reason, decidedBy: adminId, decidedAt: now })
      .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.status, 'PENDING')))
      .returning();
    if (!row) throw conflict(WITHDRAWAL_MESSAGES.notPending);
    await refund(tx, row, reason);
    await notify(
      tx,
      row.userId,
      'Withdrawal rejected',
      `Your withdrawal of ${money(row.amount)} was rejected: ${reason}. ${money(row.amount + row.fee)} has been returned to your wallet.`,
    );
    return toApi(row);
  });
}

async function markPaid(
  db: Database,
  row: typeof withdrawals.$inferSelect,
  providerReference: string,
  now: Date,
) {
  await inTransaction(db, async (tx) => {
    const [paid] = await tx
      .update(withdrawals)
      .set({ status: 'SUCCESSFUL', providerReference, decidedAt: now })
      .where(
        and(eq(withdrawals.id, row.id), sql`${withdrawals.status} IN ('PENDING', 'PROCESSING')`),
      )
      .returning();
    if (!paid) return;
    await post(tx, {
      kind: 'payout',
      reference: `payout:${row.id}`,
      description: `Paid out to ${row.bankName} ${row.accountNumber} (${providerReference})`,
      lines: [
        { account: ACCOUNTS.payoutClearing, amount: -row.amount },
        { account: ACCOUNTS.bankPayouts, amount: row.amount },
      ],
    });
    await notify(
      tx,
      row.userId,
      'Withdrawal paid',
      `${money(row.amount)} has been sent to ${row.bankName} ${row.accountNumber}.`,
    );
  });
}

/**
 * Approves a PENDING withdrawal: with `paidReference` the operator says it was paid by hand;
 * otherwise the payout provider's transfer API sends it. A failed transfer refunds the wallet.
 */
export async function approveWithdrawal(
  db: Database,
  provider: PaymentProvider,
  adminId: string,
  withdrawalId: string,
  paidReference: string | null,
  now: Date,
) {
  const [claimed] = await db
    .update(withdrawals)
    .set({ status: 'PROCESSING', decidedBy: adminId, decidedAt: now })
    .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.status, 'PENDING')))
    .returning();
  if (!claimed) throw conflict(WITHDRAWAL_MESSAGES.notPending);

  if (paidReference) {
    await markPaid(db, claimed, paidReference, now);
  } else {
    let result: Awaited<ReturnType<PaymentProvider['transfer']>>;
    try {
      result = await provider.transfer({
        reference: `wd-${claimed.id}`,
        amountKobo: claimed.amount,
        bankCode: claimed.bankCode,
        accountNumber: claimed.accountNumber,
        accountName: claimed.accountName,
        reason: 'Pluckers withdrawal',
      });
    } catch (error) {
      result = {
        status: 'failed',
        providerReference: null,
        message: error instanceof Error ? error.message : 'transfer failed',
      };
    }
    if (result.status === 'success') {
      await markPaid(db, claimed, result.providerReference ?? `wd-${claimed.id}`, now);
    } else if (result.status === 'failed') {
      await inTransaction(db, async (tx) => {
        const [failed] = await tx
          .update(withdrawals)
          .set({ status: 'FAILED', reason: result.message ?? 'The bank transfer failed' })
          .where(and(eq(withdrawals.id, claimed.id), eq(withdrawals.status, 'PROCESSING')))
          .returning();
        if (!failed) return;
        await refund(tx, failed, 'the bank transfer failed');
        await notify(
          tx,
          failed.userId,
          'Withdrawal failed',
          `We could not send ${money(failed.amount)} to ${failed.bankName} ${failed.accountNumber}. ${money(failed.amount + failed.fee)} has been returned to your wallet.`,
        );
      });
    } else {
      await db
        .update(withdrawals)
        .set({ providerReference: result.providerReference })
        .where(eq(withdrawals.id, claimed.id));
      await notify(
        db,
        claimed.userId,
        'Withdrawal processing',
        `Your withdrawal of ${money(claimed.amount)} is on its way to your bank.`,
      );
    }
  }
  const [after] = await db.select().from(withdrawals).where(eq(withdrawals.id, withdrawalId));
  if (!after) throw notFound('Withdrawal not found');
  return { ...toApi(after), internalStatus: after.status };
}
