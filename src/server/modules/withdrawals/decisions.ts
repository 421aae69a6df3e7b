import { and, eq } from 'drizzle-orm';
import { AML_MESSAGES } from '../../../shared/aml.ts';
import { WALLET_PATH } from '../../../shared/games.ts';
import type { Database } from '../../db/client.ts';
import { withdrawals } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { PaymentProviders } from '../../providers/payments/index.ts';
import { recordAudit } from '../audit/record.ts';
import { notify } from '../notifications/service.ts';
import { assertPayoutsAllowed } from '../payments/sandbox-review-service.ts';
import { money, toApi } from './serialize.ts';
import { WITHDRAWAL_MESSAGES } from './service.ts';
import { applyTransferResult, markPaid, refund, sendTransfer } from './transfers.ts';

/**
 * Withdrawals, the operator's side: approving (paid through the payout provider or marked paid
 * by hand) or rejecting (refunded). Held withdrawals need a review note; every decision is
 * audited and the player told.
 */

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
  await recordAudit(db, {
    adminId,
    action: 'withdrawal.approve',
    targetType: 'withdrawal',
    targetId: after.id,
    before: { status: 'PENDING', holdReasons: after.holdReasons },
    after: { status: after.status, paidReference, reviewNote },
  });
  return { ...toApi(after), internalStatus: after.status };
}
