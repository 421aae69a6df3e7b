import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { WALLET_PATH } from '../../../shared/games.ts';
import { PAYMENT_MESSAGES, WALLET_MESSAGES } from '../../../shared/messages.ts';
import { formatNaira, koboToNaira, nairaToKobo } from '../../../shared/money.ts';
import type { Payment, TopUpOutcome } from '../../../shared/schemas/wallet.ts';
import type { Database } from '../../db/client.ts';
import { payments, users } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, notFound } from '../../errors.ts';
import { paginate } from '../../lib/pagination.ts';
import type { PaymentProviders } from '../../providers/payments/index.ts';
import {
  type PaymentMethod,
  ProviderError,
  type VerifiedPayment,
  type VerifyHint,
} from '../../providers/payments/types.ts';
import { type Actor, lockLiveAccount } from '../auth/live-account.ts';
import { assertTopUpWithinCap } from '../kyc/caps.ts';
import { notify } from '../notifications/service.ts';
import { assertNotExcluded } from '../responsible-play/exclusions.ts';
import {
  assertWithinLimits,
  breachedLimitName,
  type LimitBreach,
  limitBreach,
} from '../responsible-play/limits.ts';
import { readSettingsRow } from '../settings/service.ts';
import { assertAgeConfirmed } from '../users/age.ts';
import { bindPerson } from '../users/break-binding.ts';
import { ACCOUNTS, post } from '../wallet/ledger.ts';
import { heldMessage, holdPayment, notifyHeld, returnHeldPayment } from './holds.ts';
import { recheckSchedule } from './recheck.ts';

export const PAYMENT_PAGE_SIZE = 10;
/** A checkout older than this with no answer from the provider is given up. */
const PENDING_EXPIRY_MS = 24 * 3_600_000;

export interface PaymentsContext {
  db: Database;
  providers: PaymentProviders;
  publicUrl: string;
  now: () => Date;
}

/** The app's database, providers and clock, as the payment routes of every audience use them. */
export function paymentsContextOf(app: FastifyInstance, publicUrl: string): PaymentsContext {
  return {
    db: app.db,
    providers: app.paymentProviders,
    publicUrl,
    now: () => app.clock.now(),
  };
}

export async function startTopUp(
  ctx: PaymentsContext,
  actor: Actor,
  method: PaymentMethod,
  amountNaira: number,
) {
  const userId = actor.id;
  // Before anything else: an unavailable method creates nothing, not even a failed payment.
  const provider = ctx.providers.byMethod[method];
  if (!provider) throw badRequest(PAYMENT_MESSAGES.notAvailable);
  const settings = await readSettingsRow(ctx.db);
  const amount = nairaToKobo(amountNaira);
  if (amount < settings.minimumPaymentAmount) {
    throw badRequest(WALLET_MESSAGES.minimumTopUp(koboToNaira(settings.minimumPaymentAmount)));
  }
  const reference = `PLK-${Date.now().toString(36).toUpperCase()}-${randomBytes(5).toString('hex').toUpperCase()}`;
  await bindPerson(ctx.db, userId, ctx.now());
  const user = await inTransaction(ctx.db, async (tx) => {
    const now = ctx.now();
    await lockLiveAccount(tx, actor, now);
    const [row] = await tx
      .select({
        email: users.email,
        fullname: users.fullname,
        phoneNumber: users.phoneNumber,
        ageConfirmedAt: users.ageConfirmedAt,
      })
      .from(users)
      .where(eq(users.id, userId));
    if (!row) throw notFound('User not found');
    assertAgeConfirmed(row);
    // Responsible play, before any provider is asked: no top-up during a break, none past a
    // deposit limit (pending checkouts count). The row lock above makes check and insert one step.
    await assertNotExcluded(tx, userId, now);
    await assertWithinLimits(tx, userId, 'deposit', amount, now);
    // KYC: no top-up that would take the wallet above its tier's balance cap.
    await assertTopUpWithinCap(tx, userId, amount);
    await tx
      .insert(payments)
      .values({ userId, method, reference, amount, mode: provider.mode, createdAt: now });
    return row;
  });
  try {
    const { paymentUrl } = await provider.initialise({
      reference,
      amountKobo: amount,
      email: user.email,
      fullname: user.fullname,
      phoneNumber: user.phoneNumber,
      callbackUrl: `${ctx.publicUrl}/api/v1/payment/callback/${method}`,
    });
    return { paymentUrl, reference };
  } catch (error) {
    // The player never got a checkout link, so nobody can pay this reference: close it now
    // rather than leave it PENDING for the reconciliation job to ask about for a day.
    await ctx.db
      .update(payments)
      .set({
        status: 'FAILED',
        failureReason: 'The checkout could not be opened',
        settledAt: ctx.now(),
      })
      .where(and(eq(payments.reference, reference), eq(payments.status, 'PENDING')));
    throw error;
  }
}

export type SettleOutcome = {
  status: 'SUCCESS' | 'FAILED' | 'PENDING' | 'HELD' | 'REFUNDED';
  message: string;
};

type PaymentRow = typeof payments.$inferSelect;

const matchesPayment = (verified: VerifiedPayment, payment: PaymentRow) =>
  verified.amountKobo === payment.amount &&
  (verified.currency ?? '').toUpperCase() === payment.currency;

/**
 * Asks the provider about a payment and applies the answer exactly once: every status change is
 * conditional on the status we read, and the ledger reference `topup:<method>:<reference>` is
 * unique. A verified amount or currency that differs from what we asked for credits nothing.
 *
 * A FAILED payment is asked about again and credited if the provider now says it was paid in
 * full: a customer can pay after we gave up on a checkout (it expired, or a first card was
 * declined and a second one went through on the same checkout), and their money must land.
 * Throws when the provider cannot be asked about a PENDING payment. The `hint` (a provider's
 * transaction id from a webhook or the browser's return) only says what to ask about.
 */
export async function settlePayment(
  ctx: PaymentsContext,
  reference: string,
  hint?: VerifyHint,
): Promise<SettleOutcome> {
  const [payment] = await ctx.db.select().from(payments).where(eq(payments.reference, reference));
  if (!payment) return { status: 'FAILED', message: 'We could not find this payment' };
  if (payment.status === 'SUCCESS') return describe('SUCCESS', payment.amount, null);
  if (payment.status === 'HELD' || payment.status === 'REFUNDED')
    return { status: payment.status, message: heldMessage(payment) };
  if (payment.status === 'FAILED') return recheckFailed(ctx, payment, hint);

  const verified = await verifyWithProvider(ctx, payment, hint);
  const now = ctx.now();
  if (verified.status === 'pending') {
    if (now.getTime() - payment.createdAt.getTime() < PENDING_EXPIRY_MS)
      return describe('PENDING', payment.amount, null);
    return fail(ctx, payment, 'The payment was not completed in time', now);
  }
  if (verified.status === 'failed')
    return fail(ctx, payment, verified.message ?? 'The payment was declined', now);
  if (!matchesPayment(verified, payment))
    return fail(ctx, payment, 'The amount paid did not match the top-up; contact support', now);
  return credit(ctx, payment, 'PENDING', now);
}

function verifyWithProvider(
  ctx: PaymentsContext,
  payment: PaymentRow,
  hint?: VerifyHint,
): Promise<VerifiedPayment> {
  const provider = ctx.providers.byMethod[payment.method];
  if (!provider)
    return Promise.reject(
      new ProviderError(
        `payment ${payment.reference} was opened in ${payment.mode} mode but ${payment.method} is now unavailable`,
      ),
    );
  if (provider.mode !== payment.mode) {
    // A sandbox checkout means nothing to the live provider, and a live one nothing to the
    // sandbox (which would call it unknown and fail it while the customer's money is real).
    return Promise.reject(
      new ProviderError(
        `payment ${payment.reference} was opened in ${payment.mode} mode but ${payment.method} now runs ${provider.mode}`,
      ),
    );
  }
  return provider.verify(payment.reference, hint);
}

async function recheckFailed(
  ctx: PaymentsContext,
  payment: PaymentRow,
  hint?: VerifyHint,
): Promise<SettleOutcome> {
  const failed = describe('FAILED', payment.amount, payment.failureReason);
  let verified: VerifiedPayment;
  try {
    verified = await verifyWithProvider(ctx, payment, hint);
  } catch {
    return failed;
  }
  if (verified.status !== 'success' || !matchesPayment(verified, payment)) return failed;
  return credit(ctx, payment, 'FAILED', ctx.now());
}

/**
 * Marks the payment SUCCESS (from the status we read) and credits the wallet, in one
 * transaction; unless the money would take the player past a deposit limit of the period it
 * lands in (now): then it is held instead (holds.ts), and refunded at once where the provider can.
 */
async function credit(
  ctx: PaymentsContext,
  payment: PaymentRow,
  from: 'PENDING' | 'FAILED',
  now: Date,
): Promise<SettleOutcome> {
  const provider = ctx.providers.byMethod[payment.method];
  const held = await inTransaction(ctx.db, async (tx) => {
    // The player's row first: what landed is counted and this lands as one step per player.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, payment.userId)).for('update');
    const breach = await limitBreach(tx, payment.userId, 'deposit', payment.amount, now, {
      landedOnly: true,
    });
    if (breach) {
      const row = await holdPayment(tx, payment, from, overLimitReason(breach), now);
      if (row && !provider?.refund) await notifyHeld(tx, row);
      return row;
    }
    const [marked] = await tx
      .update(payments)
      .set({ status: 'SUCCESS', failureReason: null, settledAt: now })
      .where(and(eq(payments.id, payment.id), eq(payments.status, from)))
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
      WALLET_PATH,
    );
    return null;
  });
  if (held && provider?.refund) {
    try {
      await returnHeldPayment(ctx.db, ctx.providers, {
        reference: held.reference,
        adminId: null,
        note: 'Pluckers top-up returned: it arrived past your deposit limit',
        now,
      });
    } catch {
      // Not refunded: the money stays on hold, in the console's queue, and the player is told.
      await notifyHeld(ctx.db, held);
    }
  }
  const [after] = await ctx.db.select().from(payments).where(eq(payments.id, payment.id));
  if (after?.status === 'HELD' || after?.status === 'REFUNDED')
    return { status: after.status, message: heldMessage(after) };
  return describe(
    after?.status === 'SUCCESS' || after?.status === 'FAILED' ? after.status : 'PENDING',
    payment.amount,
    after?.failureReason ?? null,
  );
}

/** Why a payment is held, in the player's words: the limit it would have passed. */
const overLimitReason = (breach: LimitBreach) =>
  `it would have taken you past your ${breachedLimitName(breach)}`;

async function fail(
  ctx: PaymentsContext,
  payment: PaymentRow,
  reason: string,
  now: Date,
): Promise<SettleOutcome> {
  const { id, userId, amount } = payment;
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
        WALLET_PATH,
      );
  });
  const [after] = await ctx.db.select().from(payments).where(eq(payments.id, id));
  if (after?.status === 'HELD' || after?.status === 'REFUNDED')
    return { status: after.status, message: heldMessage(after) };
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

const RECONCILE_BATCH = 100;

/**
 * Payment reconciliation: re-verifies checkouts left PENDING for a few minutes (a webhook that
 * never came), oldest first, each on its own backoff. One payment the provider cannot answer
 * about never holds up the others; the errors are reported together at the end so the worker
 * logs them. (The worker reconciles withdrawals' transfers beside it, on the same schedule.)
 */
export async function reconcilePendingPayments(
  ctx: PaymentsContext,
  olderThanMs = 5 * 60_000,
): Promise<number> {
  const now = ctx.now();
  const schedule = recheckSchedule(ctx.providers);
  const stale = await ctx.db
    .select({ reference: payments.reference, createdAt: payments.createdAt })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'PENDING'),
        lt(payments.createdAt, new Date(now.getTime() - olderThanMs)),
      ),
    )
    .orderBy(asc(payments.createdAt))
    .limit(RECONCILE_BATCH * 10);
  schedule.keepOnly(new Set(stale.map((row) => `payment:${row.reference}`)), 'payment:');

  const errors: unknown[] = [];
  let checked = 0;
  for (const { reference, createdAt } of stale) {
    const key = `payment:${reference}`;
    if (checked >= RECONCILE_BATCH) break;
    if (!schedule.due(key, now.getTime())) continue;
    checked += 1;
    try {
      const outcome = await settlePayment(ctx, reference);
      if (outcome.status === 'PENDING') schedule.later(key, now.getTime());
      else schedule.forget(key);
    } catch (error) {
      schedule.later(key, now.getTime());
      errors.push(error);
      // A reference the provider cannot answer about for longer than a checkout lives was never
      // paid through it (a later, verified webhook or callback still credits it: recheckFailed).
      if (now.getTime() - createdAt.getTime() >= PENDING_EXPIRY_MS + olderThanMs) {
        await ctx.db
          .select()
          .from(payments)
          .where(eq(payments.reference, reference))
          .then(([payment]) =>
            payment
              ? fail(ctx, payment, 'We could not confirm this payment with the provider', now)
              : null,
          )
          .catch((failure: unknown) => errors.push(failure));
      }
    }
  }

  if (errors.length > 0)
    throw new AggregateError(
      errors,
      `reconciliation: ${errors.length} item(s) could not be checked`,
    );
  return checked;
}

const HISTORY_STATUS: Record<PaymentRow['status'], string> = {
  PENDING: 'pending',
  SUCCESS: 'successful',
  FAILED: 'failed',
  HELD: 'held',
  REFUNDED: 'refunded',
};

/**
 * One of the player's top-ups as the server last settled it, in the words the checkout's return
 * used: read only, the provider is not asked. Another player's reference is not found, exactly
 * like one that does not exist.
 */
export async function getPaymentOutcome(
  db: Database,
  userId: string,
  reference: string,
): Promise<TopUpOutcome> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.userId, userId)));
  if (!row) throw notFound(PAYMENT_NOT_FOUND);
  const reply = (status: TopUpOutcome['status'], message: string): TopUpOutcome => ({
    reference: row.reference,
    amount: koboToNaira(row.amount),
    status,
    message,
  });
  switch (row.status) {
    case 'SUCCESS':
      return reply('successful', describe('SUCCESS', row.amount, null).message);
    case 'PENDING':
      return reply('pending', describe('PENDING', row.amount, null).message);
    case 'FAILED':
      return reply('failed', describe('FAILED', row.amount, row.failureReason).message);
    // Held or refunded past a deposit limit: it did not reach the wallet, as the callback says.
    case 'HELD':
    case 'REFUNDED':
      return reply('failed', heldMessage(row));
  }
}

export const PAYMENT_NOT_FOUND = 'Payment not found';

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
    status: HISTORY_STATUS[row.status],
    note: row.status === 'HELD' || row.status === 'REFUNDED' ? heldMessage(row) : null,
    channel: row.channel,
    senderName: row.senderName,
    senderBank: row.senderBank,
    createdAt: row.createdAt.toISOString(),
  }));
  return { payments: list, pagination: paginate(total?.total ?? 0, page, PAYMENT_PAGE_SIZE) };
}
