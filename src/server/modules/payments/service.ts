import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, lt } from 'drizzle-orm';
import { formatNaira, koboToNaira, nairaToKobo } from '../../../shared/money.ts';
import type { Payment } from '../../../shared/schemas/wallet.ts';
import type { Database } from '../../db/client.ts';
import { payments, users } from '../../db/schema.ts';
import { readSettingsRow } from '../../db/seed.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, notFound } from '../../errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { PaymentProviders } from '../../providers/payments/index.ts';
import type { PaymentMethod } from '../../providers/payments/types.ts';
import { notify } from '../notifications/service.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';

export const PAYMENT_PAGE_SIZE = 10;
/** A checkout older than this with no answer from the provider is given up. */
const PENDING_EXPIRY_MS = 24 * 3_600_000;

export interface PaymentsContext {
  db: Database;
  providers: PaymentProviders;
  publicUrl: string;
  now: () => Date;
}

export async function startTopUp(
  ctx: PaymentsContext,
  userId: string,
  method: PaymentMethod,
  amountNaira: number,
) {
  const settings = await readSettingsRow(ctx.db);
  const amount = nairaToKobo(amountNaira);
  if (amount < settings.minimumPaymentAmount) {
    throw badRequest(
      `The minimum top-up is ${formatNaira(koboToNaira(settings.minimumPaymentAmount))}`,
    );
  }
  if (amount > 10_000_000n * 100n) throw badRequest('The maximum top-up is ₦10,000,000');
  const [user] = await ctx.db
    .select({ email: users.email, fullname: users.fullname, phoneNumber: users.phoneNumber })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound('User not found');

  const provider = ctx.providers.byMethod[method];
  const reference = `PLK-${Date.now().toString(36).toUpperCase()}-${randomBytes(5).toString('hex').toUpperCase()}`;
  await ctx.db.insert(payments).values({ userId, method, reference, amount, mode: provider.mode });
  const { paymentUrl } = await provider.initialise({
    reference,
    amountKobo: amount,
    email: user.email,
    fullname: user.fullname,
    phoneNumber: user.phoneNumber,
    callbackUrl: `${ctx.publicUrl}/api/v1/payment/callback/${method}`,
  });
  return { paymentUrl, reference };
}

export type SettleOutcome = { status: 'SUCCESS' | 'FAILED' | 'PENDING'; message: string };

/**
 * Asks the provider about a payment and applies the answer exactly once: the PENDING → final
 * transition is conditional, and the ledger reference `topup:<method>:<reference>` is unique.
 * A verified amount or currency that differs from what we asked for credits nothing.
 */
export async function settlePayment(
  ctx: PaymentsContext,
  reference: string,
): Promise<SettleOutcome> {
  const [payment] = await ctx.db.select().from(payments).where(eq(payments.reference, reference));
  if (!payment) return { status: 'FAILED', message: 'We could not find this payment' };
  if (payment.status !== 'PENDING')
    return describe(payment.status, payment.amount, payment.failureReason);

  const provider = ctx.providers.byMethod[payment.method];
  const verified = await provider.verify(reference);
  const now = ctx.now();
  if (verified.status === 'pending') {
    if (now.getTime() - payment.createdAt.getTime() < PENDING_EXPIRY_MS)
      return describe('PENDING', payment.amount, null);
    return fail(
      ctx,
      payment.id,
      payment.userId,
      payment.amount,
      'The payment was not completed in time',
      now,
    );
  }
  if (verified.status === 'failed') {
    return fail(
      ctx,
      payment.id,
      payment.userId,
      payment.amount,
      verified.message ?? 'The payment was declined',
      now,
    );
  }
  if (
    verified.amountKobo !== payment.amount ||
    (verified.currency ?? '').toUpperCase() !== payment.currency
  ) {
    return fail(
      ctx,
      payment.id,
      payment.userId,
      payment.amount,
      'The amount paid did not match the top-up; contact support',
      now,
    );
  }

  await inTransaction(ctx.db, async (tx) => {
    const [marked] = await tx
      .update(payments)
      .set({ status: 'SUCCESS', settledAt: now })
      .where(and(eq(payments.id, payment.id), eq(payments.status, 'PENDING')))
      .returning({ id: payments.id });
    if (!marked) return;
    await post(tx, {
      kind: 'top_up',
      reference: `topup:${payment.method}:${payment.reference}`,
      description: `Top-up by ${payment.method} (${payment.reference})`,
      lines: [
        { account: ACCOUNTS.wallet, userId: payment.userId, amount: payment.amount },
        { account: ACCOUNTS.paymentClearing(payment.method), amount: -payment.amount },
      ],
    });
    await notify(
      tx,
      payment.userId,
      'Top-up successful',
      `${formatNaira(koboToNaira(payment.amount))} has been added to your wallet.`,
    );
  });
  const [after] = await ctx.db.select().from(payments).where(eq(payments.id, payment.id));
  return describe(after?.status ?? 'PENDING', payment.amount, after?.failureReason ?? null);
}

async function fail(
  ctx: PaymentsContext,
  id: string,
  userId: string,
  amount: bigint,
  reason: string,
  now: Date,
): Promise<SettleOutcome> {
  await inTransaction(ctx.db, async (tx) => {
    const [marked] = await tx
      .update(payments)
      .set({ status: 'FAILED', failureReason: reason, settledAt: now })
      .where(and(eq(payments.id, id), eq(payments.status, 'PENDING')))
      .returning({ id: payments.id });
    if (marked)
      await notify(
        tx,
        userId,
        'Top-up failed',
        `Your top-up of ${formatNaira(koboToNaira(amount))} did not go through: ${reason}.`,
      );
  });
  const [after] = await ctx.db.select().from(payments).where(eq(payments.id, id));
  return describe(after?.status ?? 'FAILED', amount, after?.failureReason ?? reason);
}

function describe(
  status: 'PENDING' | 'SUCCESS' | 'FAILED',
  amount: bigint,
  reason: string | null,
): SettleOutcome {
  const money = formatNaira(koboToNaira(amount));
  if (status === 'SUCCESS') return { status, message: `${money} has been added to your wallet` };
  if (status === 'FAILED') return { status, message: reason ?? 'The payment was not completed' };
  return {
    status,
    message: 'Your payment is still being confirmed. We will notify you when it lands.',
  };
}

/** The reconciliation job: re-verifies checkouts left PENDING for a few minutes. */
export async function reconcilePendingPayments(
  ctx: PaymentsContext,
  olderThanMs = 5 * 60_000,
): Promise<number> {
  const stale = await ctx.db
    .select({ reference: payments.reference })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'PENDING'),
        lt(payments.createdAt, new Date(ctx.now().getTime() - olderThanMs)),
      ),
    )
    .limit(100);
  for (const { reference } of stale) await settlePayment(ctx, reference);
  return stale.length;
}

export async function listPayments(db: Database, userId: string, page: number) {
  const mine = eq(payments.userId, userId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(payments)
      .where(mine)
      .orderBy(desc(payments.createdAt))
      .limit(PAYMENT_PAGE_SIZE)
      .offset((page - 1) * PAYMENT_PAGE_SIZE),
    db.select({ total: count() }).from(payments).where(mine),
  ]);
  const list: Payment[] = rows.map((row) => ({
    id: row.id,
    reference: row.reference,
    amount: koboToNaira(row.amount),
    paymentMethod: row.method,
    status:
      row.status === 'SUCCESS' ? 'successful' : row.status === 'FAILED' ? 'failed' : 'pending',
    createdAt: row.createdAt.toISOString(),
  }));
  return { payments: list, pagination: paginate(total?.total ?? 0, page, PAYMENT_PAGE_SIZE) };
}
