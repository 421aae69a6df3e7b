import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import { PLAN_DAYS_PER_PERIOD } from '../../../shared/constants.ts';
import { formatDate } from '../../../shared/date.ts';
import { formatNaira, koboToNaira } from '../../../shared/money.ts';
import { ACCOUNT_PAUSED_MESSAGE } from '../../../shared/responsible-play.ts';
import type { Plan } from '../../../shared/schemas/plans.ts';
import type { User } from '../../../shared/schemas/users.ts';
import type { Database } from '../../db/client.ts';
import { plans, users } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { conflict, ErrorCode, notFound } from '../../errors.ts';
import { type Actor, lockLiveAccount } from '../auth/live-account.ts';
import { queuePush } from '../notifications/fan-out.ts';
import { notify } from '../notifications/service.ts';
import { activeExclusion, assertNotExcluded } from '../responsible-play/exclusions.ts';
import { assertWithinLimits, breachedLimitName, limitBreach } from '../responsible-play/limits.ts';
import { assertAgeConfirmed } from '../users/age.ts';
import { bindPerson } from '../users/break-binding.ts';
import { loadApiUser } from '../users/serialize.ts';
import { ACCOUNTS, InsufficientFundsError, post } from '../wallet/ledger.ts';

const PERIOD_MS = PLAN_DAYS_PER_PERIOD * 86_400_000;

export const PLAN_MESSAGES = {
  notFound: 'Plan not found',
  alreadySubscribed: 'You already have an active plan',
  subscribed: 'You are now verified. Enjoy your VIP benefits!',
} as const;

type PlanRow = typeof plans.$inferSelect;

/** Weekly price = amountPerDay × 7 (docs/product.md#data), computed here and nowhere else. */
export function weeklyPriceKobo(plan: Pick<PlanRow, 'amountPerDay'>): bigint {
  return plan.amountPerDay * BigInt(PLAN_DAYS_PER_PERIOD);
}

export function toApiPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    planName: row.planName,
    amountPerDay: koboToNaira(row.amountPerDay),
    weeklyPrice: koboToNaira(weeklyPriceKobo(row)),
    features: row.features,
  };
}

export async function listPlans(db: Database): Promise<Plan[]> {
  const rows = await db
    .select()
    .from(plans)
    .where(eq(plans.isActive, true))
    .orderBy(asc(plans.amountPerDay));
  return rows.map(toApiPlan);
}

/** Debits the first week and sets the plan; the verified badge (no `plucker_` prefix) is immediate. */
export async function subscribe(
  db: Database,
  actor: Actor,
  planId: string,
  now: Date,
): Promise<User> {
  const userId = actor.id;
  if (!/^[0-9a-f-]{36}$/i.test(planId))
    throw notFound(PLAN_MESSAGES.notFound, ErrorCode.PlanNotFound);
  await bindPerson(db, userId, now);
  await inTransaction(db, async (tx) => {
    await lockLiveAccount(tx, actor, now);
    const [plan] = await tx
      .select()
      .from(plans)
      .where(and(eq(plans.id, planId), eq(plans.isActive, true)));
    if (!plan) throw notFound(PLAN_MESSAGES.notFound, ErrorCode.PlanNotFound);
    const [user] = await tx
      .select({ planId: users.planId, ageConfirmedAt: users.ageConfirmedAt })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!user) throw notFound('User not found');
    assertAgeConfirmed(user);
    await assertNotExcluded(tx, userId, now);
    if (user.planId) throw conflict(PLAN_MESSAGES.alreadySubscribed, ErrorCode.AlreadySubscribed);
    const price = weeklyPriceKobo(plan);
    // A plan is spend: refused past a spend limit as an entry fee is, before any charge.
    await assertWithinLimits(tx, userId, 'spend', price, now, 'plan');
    await post(
      tx,
      {
        kind: 'plan',
        reference: `plan:${userId}:${now.toISOString()}`,
        description: `${plan.planName} plan, first week`,
        lines: [
          { account: ACCOUNTS.wallet, userId, amount: -price },
          { account: ACCOUNTS.planRevenue, amount: price },
        ],
        at: now,
      },
      {
        insufficientMessage: `You need ${formatNaira(koboToNaira(price))} in your wallet for the ${plan.planName} plan. Top up to continue.`,
      },
    );
    await tx
      .update(users)
      .set({ planId: plan.id, planExpiresAt: new Date(now.getTime() + PERIOD_MS) })
      .where(eq(users.id, userId));
    await notify(
      tx,
      userId,
      `Welcome to ${plan.planName}`,
      `Your ${plan.planName} plan is active until ${formatDate(now.getTime() + PERIOD_MS)}. It renews weekly from your wallet.`,
    );
  });
  return loadApiUser(db, userId);
}

/**
 * Renews every plan whose week has ended: from the wallet when the balance allows, otherwise the
 * plan lapses (prefix and limits come back). Each period has its own ledger reference, and the
 * user row is locked and re-checked, so overlapping or repeated runs never charge a week twice.
 */
export async function renewDuePlans(
  db: Database,
  now: Date,
): Promise<{ renewed: number; lapsed: number }> {
  const due = await db
    .select({ id: users.id })
    .from(users)
    .where(and(isNotNull(users.planExpiresAt), lte(users.planExpiresAt, now)))
    .limit(200);
  let renewed = 0;
  let lapsed = 0;
  for (const { id } of due) {
    const outcome = await inTransaction(db, async (tx) => {
      const [row] = await tx
        .select({ planId: users.planId, expiresAt: users.planExpiresAt, plan: plans })
        .from(users)
        .leftJoin(plans, eq(plans.id, users.planId))
        .where(eq(users.id, id))
        .for('update', { of: users });
      if (!row?.expiresAt || row.expiresAt > now) return 'skipped' as const;
      const lapse = async (why: string) => {
        await tx.update(users).set({ planId: null, planExpiresAt: null }).where(eq(users.id, id));
        await notify(tx, id, 'Your plan has ended', why);
        await queuePush(tx, {
          type: 'plan',
          userId: id,
          at: row.expiresAt?.toISOString() ?? now.toISOString(),
          title: 'Your plan has ended',
          body: why,
        });
        return 'lapsed' as const;
      };
      // A player on a break is not charged: the plan lapses and can be taken again afterwards.
      // Held to another account's break by a key it has not proven, it is told only what any
      // refusal says: that account's break is not this one's to learn of.
      if (await activeExclusion(tx, id, now, 'shown'))
        return lapse(
          'Your plan was not renewed because you are taking a break from Pluckers, and nothing was charged. You can subscribe again when your break ends.',
        );
      if (await activeExclusion(tx, id, now))
        return lapse(
          `Your plan was not renewed, and nothing was charged. ${ACCOUNT_PAUSED_MESSAGE}`,
        );
      if (!row.plan?.isActive)
        return lapse(
          'Your plan is no longer offered, so it has ended. Pick a new one on the Pricing page.',
        );
      const plan = row.plan;
      const periodEnd = row.expiresAt;
      const price = weeklyPriceKobo(plan);
      // Nor past a spend limit: the renewal would be spend of this period, like an entry fee.
      const breach = await limitBreach(tx, id, 'spend', price, now);
      if (breach)
        return lapse(
          `Your plan was not renewed because its ${formatNaira(koboToNaira(price))} would have taken you past your ${breachedLimitName(breach)}, and nothing was charged. You can subscribe again when your limit allows.`,
        );
      try {
        // A savepoint, so a refused debit leaves nothing half-posted in the surrounding transaction.
        await tx.transaction((savepoint) =>
          post(savepoint, {
            kind: 'plan_renewal',
            reference: `plan-renewal:${id}:${periodEnd.toISOString()}`,
            description: `${plan.planName} plan renewal`,
            lines: [
              { account: ACCOUNTS.wallet, userId: id, amount: -price },
              { account: ACCOUNTS.planRevenue, amount: price },
            ],
            at: now,
          }),
        );
      } catch (error) {
        if (!(error instanceof InsufficientFundsError)) throw error;
        return lapse(
          `We could not renew ${row.plan.planName}: your wallet had less than ${formatNaira(koboToNaira(price))}. Top up and subscribe again to get your benefits back.`,
        );
      }
      const next = new Date(row.expiresAt.getTime() + PERIOD_MS);
      await tx.update(users).set({ planExpiresAt: next }).where(eq(users.id, id));
      const renewal = {
        title: `${row.plan.planName} renewed`,
        body: `${formatNaira(koboToNaira(price))} was taken from your wallet. Your plan runs until ${formatDate(next)}.`,
      };
      await notify(tx, id, renewal.title, renewal.body);
      await queuePush(tx, { type: 'plan', userId: id, at: periodEnd.toISOString(), ...renewal });
      return 'renewed' as const;
    });
    if (outcome === 'renewed') renewed += 1;
    if (outcome === 'lapsed') lapsed += 1;
  }
  return { renewed, lapsed };
}
