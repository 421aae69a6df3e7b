import { and, desc, eq, isNotNull, or, sql } from 'drizzle-orm';
import { WALLET_PATH } from '../../../shared/games.ts';
import { formatNaira, koboToNaira } from '../../../shared/money.ts';
import type { HeldPaymentList } from '../../../shared/schemas/admin.ts';
import type { PaymentMethod } from '../../../shared/schemas/wallet.ts';
import type { Executor } from '../../db/client.ts';
import { payments, plans, users } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import type { PaymentProviders } from '../../providers/payments/index.ts';
import { ProviderError } from '../../providers/payments/types.ts';
import { recordAudit } from '../audit/record.ts';
import { notify } from '../notifications/service.ts';
import { limitBreach, limitBreachMessage } from '../responsible-play/limits.ts';
import { publicUsername } from '../users/serialize.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';
import { transferRefusal } from './transfer-rules.ts';

/**
 * Money that lands past a deposit limit. A payment that completes and would take the player
 * past a limit of the period it lands in is not credited: it moves from the provider's clearing
 * account to the held account (`hold:<method>:<reference>`), then goes back to the payer through
 * the provider where it offers refunds, or waits for an operator, who releases it into the
 * wallet (as the player's limits allow then) or returns it. Either way it leaves the held
 * account once (`unhold:<method>:<reference>`), so nothing is lost or counted twice.
 */

type PaymentRow = typeof payments.$inferSelect;

const PROVIDER_NAMES: Record<PaymentMethod, string> = {
  paystack: 'Paystack',
  flutterwave: 'Flutterwave',
  transactpay: 'TransactPay',
};

const holdReference = (payment: PaymentRow) => `hold:${payment.method}:${payment.reference}`;
const unholdReference = (payment: PaymentRow) => `unhold:${payment.method}:${payment.reference}`;
const moneyOf = (payment: Pick<PaymentRow, 'amount'>) => formatNaira(koboToNaira(payment.amount));

/** What the player is told about a held or refunded payment, on the status page and in notices. */
export function heldMessage(payment: PaymentRow): string {
  const why = payment.holdReason ?? 'it was over your deposit limit';
  if (payment.channel === 'bank_transfer')
    return payment.status === 'REFUNDED'
      ? `${moneyOf(payment)} was sent back to ${payment.senderName ?? 'the sender'}: ${why}, so it did not go into your wallet.`
      : `${moneyOf(payment)} is on hold: ${why}, so it was not added to your wallet. It is safe: our team will send it back to ${payment.senderName ?? 'the sender'} or, once the rules allow, add it to your wallet.`;
  return payment.status === 'REFUNDED'
    ? `${moneyOf(payment)} was refunded: ${why}, so it went back through ${PROVIDER_NAMES[payment.method]} instead of into your wallet.`
    : `${moneyOf(payment)} is on hold: ${why}, so it was not added to your wallet. It is safe: our team will return it to you or, once your limit allows, add it to your wallet.`;
}

/** Tells the player their payment is on hold (when no refund is under way, or it failed). */
export async function notifyHeld(db: Executor, payment: PaymentRow): Promise<void> {
  await notify(db, payment.userId, 'Top-up on hold', heldMessage(payment), WALLET_PATH);
}

/**
 * Inside the transaction that would have credited it, with the player's row locked: marks the
 * payment HELD (from the status read) and moves its money to the held account. False when
 * another settlement got there first.
 */
export async function holdPayment(
  tx: Executor,
  payment: PaymentRow,
  from: 'PENDING' | 'FAILED',
  reason: string,
  now: Date,
): Promise<PaymentRow | null> {
  const [held] = await tx
    .update(payments)
    .set({ status: 'HELD', failureReason: null, holdReason: reason, heldAt: now, settledAt: now })
    .where(and(eq(payments.id, payment.id), eq(payments.status, from)))
    .returning();
  if (!held) return null;
  await post(tx, {
    kind: 'payment_hold',
    reference: holdReference(held),
    description: `Top-up by ${held.method} (${held.reference}) held: past a deposit limit`,
    lines: [
      { account: ACCOUNTS.heldPayments, amount: held.amount },
      { account: ACCOUNTS.paymentClearing(held.method), amount: -held.amount },
    ],
    at: now,
  });
  // The server's own decision, in the operators' trail beside what they later decide.
  await recordAudit(tx, {
    adminId: null,
    action: 'payment.hold',
    targetType: 'payment',
    targetId: held.reference,
    before: { status: from },
    after: { status: 'HELD', reason, amount: held.amount.toString() },
  });
  return held;
}

/** Moves a HELD payment's money out of the held account: the conditional status change first. */
async function unhold(
  tx: Executor,
  payment: PaymentRow,
  to: 'SUCCESS' | 'REFUNDED',
  resolution: { adminId: string | null; note: string; now: Date },
): Promise<PaymentRow | null> {
  const [resolved] = await tx
    .update(payments)
    .set({
      status: to,
      holdResolvedBy: resolution.adminId,
      holdResolvedAt: resolution.now,
      holdResolutionNote: resolution.note,
      // Released money lands in the wallet now, and counts in this period's deposits.
      ...(to === 'SUCCESS' ? { settledAt: resolution.now } : {}),
    })
    .where(and(eq(payments.id, payment.id), eq(payments.status, 'HELD')))
    .returning();
  if (!resolved) return null;
  await post(tx, {
    kind: to === 'SUCCESS' ? 'payment_hold_release' : 'payment_hold_return',
    reference: unholdReference(resolved),
    description: `Held top-up ${resolved.reference} ${to === 'SUCCESS' ? 'released to the wallet' : 'returned to the payer'}`,
    lines: [
      { account: ACCOUNTS.heldPayments, amount: -resolved.amount },
      { account: ACCOUNTS.paymentClearing(resolved.method), amount: resolved.amount },
    ],
    at: resolution.now,
  });
  return resolved;
}

/**
 * The operators' trail of a hold resolved, in the transaction that resolved it: released into
 * the wallet (SUCCESS) or returned to the payer (REFUNDED), by an operator or (`adminId` null)
 * by the server's automatic refund.
 */
async function auditHoldResolution(
  tx: Executor,
  resolved: PaymentRow,
  resolution: { adminId: string | null; note: string },
): Promise<void> {
  await recordAudit(tx, {
    adminId: resolution.adminId,
    action: resolved.status === 'SUCCESS' ? 'payment.hold.release' : 'payment.hold.return',
    targetType: 'payment',
    targetId: resolved.reference,
    before: { status: 'HELD' },
    after: { status: resolved.status, note: resolution.note, amount: resolved.amount.toString() },
  });
}

async function heldPayment(db: Executor, reference: string): Promise<PaymentRow> {
  const [payment] = await db.select().from(payments).where(eq(payments.reference, reference));
  if (!payment?.heldAt) throw notFound('No held payment has this reference');
  if (payment.status !== 'HELD') throw conflict('This payment is no longer on hold');
  return payment;
}

/**
 * Returns a held payment to the payer: through the provider's refund where it has one, else
 * (TransactPay) on the operator's word that it was returned outside the app, in `note`.
 * `adminId` null: the automatic refund right after the hold. Throws when the provider refuses.
 */
export async function returnHeldPayment(
  db: Executor,
  providers: PaymentProviders,
  input: { reference: string; adminId: string | null; note: string; now: Date },
): Promise<PaymentRow> {
  const payment = await heldPayment(db, input.reference);
  const provider = providers.byMethod[payment.method];
  if (provider?.refund) {
    try {
      await provider.refund(payment.reference, payment.amount, input.note, {
        transactionId: payment.providerTransactionId ?? undefined,
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      throw badRequest(
        `${PROVIDER_NAMES[payment.method]} did not accept the refund: ${error.message}`,
      );
    }
  }
  return inTransaction(db, async (tx) => {
    const returned = await unhold(tx, payment, 'REFUNDED', input);
    if (!returned) throw conflict('This payment is no longer on hold');
    await auditHoldResolution(tx, returned, input);
    if (input.adminId) {
      await notify(
        tx,
        returned.userId,
        'Top-up returned',
        `${moneyOf(returned)} that was on hold has been returned to you${provider?.refund ? ` through ${PROVIDER_NAMES[returned.method]}` : ''}.`,
        WALLET_PATH,
      );
    } else {
      await notify(tx, returned.userId, 'Top-up refunded', heldMessage(returned), WALLET_PATH);
    }
    return returned;
  });
}

/**
 * Releases a held payment into the player's wallet, as a top-up landing now: refused (with the
 * player's limit message) while it would still take them past a deposit limit.
 */
export async function releaseHeldPayment(
  db: Executor,
  input: { reference: string; adminId: string; note: string; now: Date },
): Promise<PaymentRow> {
  return inTransaction(db, async (tx) => {
    const found = await heldPayment(tx, input.reference);
    await tx.select({ id: users.id }).from(users).where(eq(users.id, found.userId)).for('update');
    // A bank transfer meets every rule it was held by (a break, the tier's cap...) again.
    if (found.channel === 'bank_transfer') {
      const refusal = await transferRefusal(tx, found.userId, found.amount, input.now);
      if (refusal) throw badRequest(`This transfer cannot be added to the wallet now: ${refusal}.`);
    }
    const breach = await limitBreach(tx, found.userId, 'deposit', found.amount, input.now, {
      landedOnly: true,
    });
    if (breach) throw badRequest(limitBreachMessage(breach));
    const released = await unhold(tx, found, 'SUCCESS', input);
    if (!released) throw conflict('This payment is no longer on hold');
    await post(tx, {
      kind: 'top_up',
      reference: `topup:${released.method}:${released.reference}`,
      description: `Top-up by ${released.method} (${released.reference}), released from hold`,
      lines: [
        { account: ACCOUNTS.wallet, userId: released.userId, amount: released.amount },
        { account: ACCOUNTS.paymentClearing(released.method), amount: -released.amount },
      ],
      at: input.now,
    });
    await notify(
      tx,
      released.userId,
      'Top-up added',
      `${moneyOf(released)} that was on hold has been added to your wallet.`,
      WALLET_PATH,
    );
    await auditHoldResolution(tx, released, input);
    return released;
  });
}

/** The console's queue: payments on hold, oldest first, then those resolved, newest first. */
export async function listHeldPayments(
  db: Executor,
  providers: PaymentProviders,
): Promise<HeldPaymentList> {
  const rows = await db
    .select({ payment: payments, handle: users.handle, features: plans.features })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .leftJoin(plans, eq(plans.id, users.planId))
    .where(
      and(
        isNotNull(payments.heldAt),
        or(eq(payments.status, 'HELD'), isNotNull(payments.holdResolvedAt)),
      ),
    )
    .orderBy(
      sql`${payments.status} <> 'HELD'`,
      sql`CASE WHEN ${payments.status} = 'HELD' THEN ${payments.heldAt} END`,
      desc(payments.holdResolvedAt),
    )
    .limit(200);
  return {
    held: rows.filter(({ payment }) => payment.status === 'HELD').length,
    payments: rows.map(({ payment, handle, features }) => ({
      reference: payment.reference,
      userId: payment.userId,
      username: publicUsername(handle, features?.getVerifiedBadge === true),
      method: payment.method,
      amount: koboToNaira(payment.amount),
      status:
        payment.status === 'HELD' ? 'held' : payment.status === 'SUCCESS' ? 'released' : 'refunded',
      reason: payment.holdReason ?? '',
      heldAt: (payment.heldAt ?? payment.createdAt).toISOString(),
      resolvedAt: payment.holdResolvedAt?.toISOString() ?? null,
      resolutionNote: payment.holdResolutionNote,
      canRefund: Boolean(providers.byMethod[payment.method]?.refund),
      channel: payment.channel,
      senderName: payment.senderName,
      senderBank: payment.senderBank,
    })),
  };
}
