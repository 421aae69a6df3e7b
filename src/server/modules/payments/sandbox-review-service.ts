import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { formatNaira, koboToNaira } from '../../../shared/money.ts';
import type { SandboxPaymentList, SandboxReviewResult } from '../../../shared/schemas/admin.ts';
import type { Executor } from '../../db/client.ts';
import { payments, plans, users } from '../../db/schema.ts';
import { conflict, notFound } from '../../errors.ts';
import type { PaymentProviders } from '../../providers/payments/index.ts';
import { recordAudit } from '../audit/record.ts';
import { publicUsername } from '../users/serialize.ts';

/**
 * Sandbox top-ups credited test money. In a live system (sandbox off) any such credit left
 * unreviewed is money that never existed: it fails the ledger check and pauses every payout
 * until an operator has taken it back (the audited balance adjustment) or judged it harmless,
 * and marked it reviewed with a note.
 */
const unreviewed = and(
  eq(payments.mode, 'sandbox'),
  eq(payments.status, 'SUCCESS'),
  isNull(payments.sandboxReviewedAt),
);

async function unreviewedSandboxMoney(db: Executor) {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      amount: sql<string>`coalesce(sum(${payments.amount}), 0)::text`,
    })
    .from(payments)
    .where(unreviewed);
  return { count: row?.count ?? 0, amountKobo: BigInt(row?.amount ?? 0) };
}

/** Refuses a payout (by the provider or marked paid by hand) while sandbox money is unreviewed. */
export async function assertPayoutsAllowed(
  db: Executor,
  providers: Pick<PaymentProviders, 'sandbox'>,
): Promise<void> {
  if (providers.sandbox) return;
  const { count, amountKobo } = await unreviewedSandboxMoney(db);
  if (count === 0) return;
  throw conflict(
    `Payouts are paused: ${count} sandbox top-up${count === 1 ? '' : 's'} (${formatNaira(koboToNaira(amountKobo))} of test money) ${count === 1 ? 'has' : 'have'} not been reviewed. Review them under Sandbox payments in the console first.`,
  );
}

/**
 * Successful sandbox top-ups, unreviewed first then newest (at most 200), and whether they pause
 * payouts now: only in a live system (`sandbox` off) with some still unreviewed.
 */
export async function listSandboxPayments(
  db: Executor,
  sandbox: boolean,
): Promise<SandboxPaymentList> {
  const rows = await db
    .select({ payment: payments, handle: users.handle, features: plans.features })
    .from(payments)
    .innerJoin(users, eq(users.id, payments.userId))
    .leftJoin(plans, eq(plans.id, users.planId))
    .where(and(eq(payments.mode, 'sandbox'), eq(payments.status, 'SUCCESS')))
    .orderBy(sql`${payments.sandboxReviewedAt} IS NOT NULL`, desc(payments.createdAt))
    .limit(200);
  const { count } = await unreviewedSandboxMoney(db);
  return {
    sandbox,
    blocksPayouts: !sandbox && count > 0,
    unreviewed: count,
    payments: rows.map(({ payment, handle, features }) => ({
      reference: payment.reference,
      userId: payment.userId,
      username: publicUsername(handle, features?.getVerifiedBadge === true),
      method: payment.method,
      amount: koboToNaira(payment.amount),
      createdAt: payment.createdAt.toISOString(),
      reviewedAt: payment.sandboxReviewedAt?.toISOString() ?? null,
      reviewNote: payment.sandboxReviewNote,
    })),
  };
}

/**
 * Marks one unreviewed sandbox top-up reviewed with the operator's note, audited. 404 when no
 * successful sandbox top-up has the reference, 409 when it was reviewed already.
 */
export async function markSandboxPaymentReviewed(
  db: Executor,
  {
    adminId,
    reference,
    note,
    now,
  }: { adminId: string; reference: string; note: string; now: Date },
): Promise<SandboxReviewResult> {
  const [marked] = await db
    .update(payments)
    .set({ sandboxReviewedAt: now, sandboxReviewedBy: adminId, sandboxReviewNote: note })
    .where(and(eq(payments.reference, reference), unreviewed))
    .returning({ reference: payments.reference, amount: payments.amount });
  if (!marked) {
    const [existing] = await db
      .select({ id: payments.id })
      .from(payments)
      .where(
        and(
          eq(payments.reference, reference),
          eq(payments.mode, 'sandbox'),
          eq(payments.status, 'SUCCESS'),
        ),
      );
    if (!existing) throw notFound('No successful sandbox top-up has this reference');
    throw conflict('This sandbox top-up has already been reviewed');
  }
  await recordAudit(db, {
    adminId,
    action: 'payment.sandbox_review',
    targetType: 'payment',
    targetId: marked.reference,
    before: { sandboxReviewedAt: null },
    after: { sandboxReviewedAt: now.toISOString(), note, amount: marked.amount },
  });
  return { reference: marked.reference, reviewedAt: now.toISOString() };
}
