import { and, asc, count, desc, eq, lt, sql } from 'drizzle-orm';
import { AML_MESSAGES } from '../../../shared/aml.ts';
import { WITHDRAWAL_PROCESSING_TEXT } from '../../../shared/constants.ts';
import { WALLET_PATH } from '../../../shared/games.ts';
import { WALLET_MESSAGES } from '../../../shared/messages.ts';
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
import type { PaymentProviders } from '../../providers/payments/index.ts';
import {
  type PaymentProvider,
  ProviderError,
  type TransferResult,
} from '../../providers/payments/types.ts';
import { recordAudit } from '../admin/audit.ts';
import { type Actor, lockLiveAccount } from '../auth/live-account.ts';
import { assertPayoutNameMatches, assertWithdrawalAllowed } from '../kyc/caps.ts';
import { queuePush } from '../notifications/fan-out.ts';
import { notify } from '../notifications/service.ts';
import type { RecheckSchedule } from '../payments/recheck.ts';
import { assertPayoutsAllowed } from '../payments/sandbox-review.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';
import { gatherAmlFacts, holdReasonsFor } from './aml-rules.ts';
import { resolveBankAccount } from './bank-accounts.ts';

export const WITHDRAWAL_PAGE_SIZE = 10;

export const WITHDRAWAL_MESSAGES = {
  requested: 'Withdrawal requested. It will be processed within 24–48 hours.',
  bankSaved: 'Bank account saved',
  notPending: 'This withdrawal has already been processed',
  noPayoutProvider:
    'Payouts through Paystack are not available on this server (no PAYSTACK_SECRET_KEY). Pay it by bank transfer and mark it paid with the transfer reference.',
} as const;

const money = (kobo: bigint) => formatNaira(koboToNaira(kobo));

export async function saveBankAccount(
  db: Database,
  provider: PaymentProvider | null,
  sendMail: (message: MailMessage) => Promise<boolean>,
  mailFor: (to: string, account: string) => MailMessage,
  userId: string,
  input: { bankID: string; accountNumber: string },
) {
  const { bank, accountName, email } = await resolveBankAccount(db, provider, userId, input);
  // After tier 2 the money may only go to an account in the verified name.
  await assertPayoutNameMatches(db, userId, accountName);
  await db
    .update(users)
    .set({ bankId: bank.id, bankAccountNumber: input.accountNumber, bankAccountName: accountName })
    .where(eq(users.id, userId));
  await notify(
    db,
    userId,
    'Bank account updated',
    `Withdrawals now go to ${accountName}, ${bank.bankName} ${input.accountNumber}.`,
    WALLET_PATH,
  );
  await sendMail(mailFor(email, `${accountName}, ${bank.bankName} ${input.accountNumber}`));
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
    reference: transferReference(row.id),
    amount: koboToNaira(row.amount),
    fee: koboToNaira(row.fee),
    status,
    bankName: row.bankName,
    accountNumber: row.accountNumber,
    accountName: row.accountName,
    createdAt: row.createdAt.toISOString(),
  };
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
          holdReasons,
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
    await recordAudit(tx, {
      adminId,
      action: 'withdrawal.reject',
      targetType: 'withdrawal',
      targetId: row.id,
      before: { status: 'PENDING', holdReasons: row.holdReasons },
      after: { status: 'REJECTED', reason },
    });
    await refund(tx, row, reason);
    await notify(
      tx,
      row.userId,
      'Withdrawal rejected',
      `Your withdrawal of ${money(row.amount)} was rejected: ${reason}. ${money(row.amount + row.fee)} has been returned to your wallet.`,
      WALLET_PATH,
    );
    return toApi(row);
  });
}

/** Transfers go out under this reference; providers refuse a repeated one, so a payout can't go twice. */
export const transferReference = (withdrawalId: string) => `wd-${withdrawalId}`;

const OPEN_STATUSES = sql`${withdrawals.status} IN ('PENDING', 'PROCESSING')`;

/** Moves the reserved amount from payout clearing to bank payouts: the money has left. */
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
      .where(and(eq(withdrawals.id, row.id), OPEN_STATUSES))
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
    await queuePush(tx, { type: 'withdrawal-paid', withdrawalId: row.id });
    await notify(
      tx,
      row.userId,
      'Withdrawal paid',
      `${money(row.amount)} has been sent to ${row.bankName} ${row.accountNumber}.`,
      WALLET_PATH,
    );
  });
}

/** A transfer that did not go through: FAILED, and amount + fee back in the wallet. */
async function failTransfer(db: Database, withdrawalId: string, reason: string) {
  await inTransaction(db, async (tx) => {
    const [failed] = await tx
      .update(withdrawals)
      .set({ status: 'FAILED', reason })
      .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.status, 'PROCESSING')))
      .returning();
    if (!failed) return;
    await refund(tx, failed, 'the bank transfer failed');
    await notify(
      tx,
      failed.userId,
      'Withdrawal failed',
      `We could not send ${money(failed.amount)} to ${failed.bankName} ${failed.accountNumber}. ${money(failed.amount + failed.fee)} has been returned to your wallet.`,
      WALLET_PATH,
    );
  });
}

/**
 * The provider took back a transfer it had reported paid (the bank bounced it): the money is
 * back with us, so the payout is reversed and amount + fee return to the wallet.
 */
async function reversePayout(db: Database, withdrawalId: string, reason: string) {
  await inTransaction(db, async (tx) => {
    const [reversed] = await tx
      .update(withdrawals)
      .set({ status: 'FAILED', reason })
      .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.status, 'SUCCESSFUL')))
      .returning();
    if (!reversed) return;
    await post(tx, {
      kind: 'payout_reversal',
      reference: `payout-reversal:${reversed.id}`,
      description: `Transfer for withdrawal ${reversed.id} reversed by the bank`,
      lines: [
        { account: ACCOUNTS.bankPayouts, amount: -reversed.amount },
        { account: ACCOUNTS.withdrawalFees, amount: -reversed.fee },
        {
          account: ACCOUNTS.wallet,
          userId: reversed.userId,
          amount: reversed.amount + reversed.fee,
        },
      ],
    });
    await notify(
      tx,
      reversed.userId,
      'Withdrawal reversed',
      `The bank returned your withdrawal of ${money(reversed.amount)} to ${reversed.bankName} ${reversed.accountNumber}. ${money(reversed.amount + reversed.fee)} is back in your wallet.`,
      WALLET_PATH,
    );
  });
}

/** Applies what the provider says about a transfer; every change is conditional on the status. */
async function applyTransferResult(
  db: Database,
  row: typeof withdrawals.$inferSelect,
  result: TransferResult,
  now: Date,
) {
  if (result.status === 'success') {
    await markPaid(db, row, result.providerReference ?? transferReference(row.id), now);
  } else if (result.status === 'failed' || result.status === 'reversed') {
    const reason = result.message ?? 'The bank transfer failed';
    if (row.status === 'SUCCESSFUL') {
      if (result.status === 'reversed') await reversePayout(db, row.id, reason);
    } else {
      await failTransfer(db, row.id, reason);
    }
  } else if (result.providerReference && row.status === 'PROCESSING') {
    await db
      .update(withdrawals)
      .set({ providerReference: result.providerReference })
      .where(and(eq(withdrawals.id, row.id), eq(withdrawals.status, 'PROCESSING')));
  }
}

/**
 * Asks the provider to send a withdrawal's transfer. A refusal means nothing was sent (failed);
 * no answer means we cannot know (pending: the transfer webhook or reconciliation will tell).
 */
async function sendTransfer(
  provider: PaymentProvider,
  row: typeof withdrawals.$inferSelect,
): Promise<TransferResult> {
  try {
    return await provider.transfer({
      reference: transferReference(row.id),
      amountKobo: row.amount,
      bankCode: row.bankCode,
      accountNumber: row.accountNumber,
      accountName: row.accountName,
      reason: 'Pluckers withdrawal',
    });
  } catch (error) {
    return error instanceof ProviderError && error.refused
      ? { status: 'failed', providerReference: null, message: error.message }
      : { status: 'pending', providerReference: null };
  }
}

/**
 * A PROCESSING withdrawal the provider has never heard of: its transfer request was lost on the
 * way (a crash or a network failure between approval and the provider), so nothing was sent. It
 * is sent again under the same reference, which the provider accepts at most once, so checkers
 * racing each other still send it once. A refusal now is believed only if the provider still
 * has no such transfer: it may be refusing the reference itself, the first request having
 * arrived after all, and refunding money that left would create money.
 */
async function resendLostTransfer(
  provider: PaymentProvider,
  row: typeof withdrawals.$inferSelect,
): Promise<TransferResult> {
  const sent = await sendTransfer(provider, row);
  if (sent.status !== 'failed') return sent;
  const after = await provider.verifyTransfer(transferReference(row.id));
  return after.status === 'unknown' ? sent : after;
}

/**
 * Approves a PENDING withdrawal. With `paidReference` the operator says it was paid by hand;
 * otherwise the payout provider's transfer API sends it. A transfer the
 * provider refused is refunded; one whose outcome is unknown (no answer, timeout, 5xx) stays
 * PROCESSING until the provider confirms it (transfer webhook or reconciliation), because
 * refunding money that may have left would create money.
 */
export async function approveWithdrawal(
  db: Database,
  providers: Pick<PaymentProviders, 'sandbox' | 'payouts'>,
  adminId: string,
  withdrawalId: string,
  paidReference: string | null,
  now: Date,
  reviewNote: string | null = null,
) {
  // Checked before the claim: in a live system no sandbox top-up can succeed any more, so the
  // unreviewed set only shrinks and cannot appear between this check and the payout.
  await assertPayoutsAllowed(db, providers);
  // Hold reasons are written once, with the request, so reading them before the claim is safe.
  const [pending] = await db
    .select({ holdReasons: withdrawals.holdReasons })
    .from(withdrawals)
    .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.status, 'PENDING')));
  // One already decided (or unknown) falls through to the claim's 409, as before.
  if (pending && pending.holdReasons.length > 0 && !reviewNote)
    throw badRequest(AML_MESSAGES.reviewNoteRequired);
  const provider = providers.payouts;
  if (!paidReference && !provider) throw conflict(WITHDRAWAL_MESSAGES.noPayoutProvider);
  const [claimed] = await db
    .update(withdrawals)
    .set({ status: 'PROCESSING', decidedBy: adminId, decidedAt: now })
    .where(and(eq(withdrawals.id, withdrawalId), eq(withdrawals.status, 'PENDING')))
    .returning();
  if (!claimed) throw conflict(WITHDRAWAL_MESSAGES.notPending);

  if (paidReference) {
    await markPaid(db, claimed, paidReference, now);
  } else if (provider) {
    const result = await sendTransfer(provider, claimed);
    await applyTransferResult(db, claimed, result, now);
    if (result.status === 'pending') {
      await notify(
        db,
        claimed.userId,
        'Withdrawal processing',
        `Your withdrawal of ${money(claimed.amount)} is on its way to your bank.`,
        WALLET_PATH,
      );
    }
  }
  const [after] = await db.select().from(withdrawals).where(eq(withdrawals.id, withdrawalId));
  if (!after) throw notFound('Withdrawal not found');
  return { ...toApi(after), internalStatus: after.status, holdReasons: after.holdReasons };
}

/**
 * Asks the payout provider where a transfer stands (after a transfer webhook, or from the
 * reconciliation job) and settles the withdrawal: paid, refunded, or reversed after being paid;
 * a transfer the provider never received is sent again.
 * Returns the withdrawal's status afterwards, or null when the reference is not one of ours.
 */
export async function settleTransfer(
  db: Database,
  provider: PaymentProvider,
  reference: string,
  now: Date,
): Promise<(typeof withdrawals.$inferSelect)['status'] | null> {
  const id = /^wd-([0-9a-f-]{36})$/i.exec(reference)?.[1];
  if (!id) return null;
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.id, id));
  if (!row) return null;
  if (row.status !== 'PROCESSING' && row.status !== 'SUCCESSFUL') return row.status;
  let result = await provider.verifyTransfer(reference);
  // A transfer code means the provider once answered about this transfer: never resend then.
  if (result.status === 'unknown' && row.status === 'PROCESSING' && !row.providerReference)
    result = await resendLostTransfer(provider, row);
  await applyTransferResult(db, row, result, now);
  const [after] = await db
    .select({ status: withdrawals.status })
    .from(withdrawals)
    .where(eq(withdrawals.id, id));
  return after?.status ?? null;
}

/**
 * Part of the reconciliation job: withdrawals approved a few minutes ago whose transfer is still
 * PROCESSING (the provider answered "pending", or did not answer) are checked with the provider,
 * each on the same backoff as stale payments.
 */
export async function reconcileProcessingWithdrawals(
  db: Database,
  provider: PaymentProvider,
  now: Date,
  schedule: RecheckSchedule,
  olderThanMs = 5 * 60_000,
): Promise<number> {
  const stuck = await db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.status, 'PROCESSING'),
        lt(withdrawals.decidedAt, new Date(now.getTime() - olderThanMs)),
      ),
    )
    .orderBy(asc(withdrawals.decidedAt))
    .limit(500);
  schedule.keepOnly(new Set(stuck.map((row) => `transfer:${row.id}`)), 'transfer:');
  const errors: unknown[] = [];
  let checked = 0;
  for (const { id } of stuck) {
    const key = `transfer:${id}`;
    if (checked >= 50) break;
    if (!schedule.due(key, now.getTime())) continue;
    checked += 1;
    try {
      const status = await settleTransfer(db, provider, transferReference(id), now);
      if (status === 'PROCESSING') schedule.later(key, now.getTime());
      else schedule.forget(key);
    } catch (error) {
      schedule.later(key, now.getTime());
      errors.push(error);
    }
  }
  if (errors.length > 0)
    throw new AggregateError(errors, `${errors.length} transfer(s) could not be checked`);
  return checked;
}
