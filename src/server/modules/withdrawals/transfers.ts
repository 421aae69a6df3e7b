import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { WALLET_PATH } from '../../../shared/games.ts';
import type { Database } from '../../db/client.ts';
import { withdrawals } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import {
  type PaymentProvider,
  ProviderError,
  type TransferResult,
} from '../../providers/payments/types.ts';
import { queuePush } from '../notifications/fan-out.ts';
import { notify } from '../notifications/service.ts';
import type { RecheckSchedule } from '../payments/recheck.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';
import { money, transferReference } from './serialize.ts';

/**
 * Withdrawals, the payout provider's side: sending a transfer, applying its result (paid,
 * failed and refunded, reversed by the bank), settling what a webhook reports and reconciling
 * transfers whose outcome never arrived.
 */

/** Returns the reserved money (amount + fee) to the wallet; used by rejections and failed transfers. */
export async function refund(
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

const OPEN_STATUSES = sql`${withdrawals.status} IN ('PENDING', 'PROCESSING')`;

/** Moves the reserved amount from payout clearing to bank payouts: the money has left. */
export async function markPaid(
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
export async function applyTransferResult(
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
export async function sendTransfer(
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
