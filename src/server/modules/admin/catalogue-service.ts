import { asc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { nairaToKobo } from '../../../shared/money.ts';
import {
  type AdminPlan,
  type categoryBodySchema,
  type planBodySchema,
  type settingsBodySchema,
  tierCapOrderIssue,
} from '../../../shared/schemas/admin.ts';
import type { Category } from '../../../shared/schemas/catalogue.ts';
import type { Database } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { categories, plans, settings } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, conflict, ErrorCode, notFound } from '../../errors.ts';
import { recordAudit } from '../audit/record.ts';
import { toApiPlan } from '../plans/service.ts';

type SettingsBody = z.output<typeof settingsBodySchema>;
type PlanBody = z.output<typeof planBodySchema>;
type CategoryBody = z.output<typeof categoryBodySchema>;

const PLAN_NAME_TAKEN = 'A plan with this name already exists';
const CATEGORY_TITLE_TAKEN = 'A category with this title already exists';

/** A name another row already has is the operator's mistake (409), not a crash (500). */
async function uniqueName<T>(work: () => Promise<T>, message: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(message);
    throw error;
  }
}

/** Naira in, kobo stored; absent: unchanged, null: no cap. */
const cap = (value: number | null | undefined) =>
  value === undefined ? undefined : value === null ? null : nairaToKobo(value);

/** Saves the settings, audited; the tier caps must still rise with the tier once saved. */
export async function updateSettings(
  db: Database,
  adminId: string,
  body: SettingsBody,
  now: Date,
): Promise<void> {
  const limits = {
    tier1BalanceCap: cap(body.tier1BalanceCap),
    tier1DailyWithdrawalCap: cap(body.tier1DailyWithdrawalCap),
    tier2BalanceCap: cap(body.tier2BalanceCap),
    tier2DailyWithdrawalCap: cap(body.tier2DailyWithdrawalCap),
    tier3BalanceCap: cap(body.tier3BalanceCap),
    tier3DailyWithdrawalCap: cap(body.tier3DailyWithdrawalCap),
    amlReviewThreshold:
      body.amlReviewThreshold === undefined ? undefined : nairaToKobo(body.amlReviewThreshold),
  };
  await inTransaction(db, async (tx) => {
    const [before] = await tx.select().from(settings).where(eq(settings.id, 1)).for('update');
    if (!before) throw notFound('Settings not found');
    // The order of tiers holds for what would be stored, fields left out included.
    const stored = (key: keyof typeof limits & `tier${string}`) => {
      const value = limits[key] === undefined ? before[key] : limits[key];
      return value === null ? null : Number(value) / 100;
    };
    const issue = tierCapOrderIssue({
      tier1BalanceCap: stored('tier1BalanceCap'),
      tier1DailyWithdrawalCap: stored('tier1DailyWithdrawalCap'),
      tier2BalanceCap: stored('tier2BalanceCap'),
      tier2DailyWithdrawalCap: stored('tier2DailyWithdrawalCap'),
      tier3BalanceCap: stored('tier3BalanceCap'),
      tier3DailyWithdrawalCap: stored('tier3DailyWithdrawalCap'),
    });
    // The schema's own rule, checked against the stored caps: the same code as when it fails there.
    if (issue) throw badRequest(issue.message, ErrorCode.ValidationFailed);
    const [after] = await tx
      .update(settings)
      .set({
        withdrawalTransactionFee: nairaToKobo(body.withdrawalTransactionFee),
        minimumPaymentAmount: nairaToKobo(body.minimumPaymentAmount),
        dailyGameLimit: body.dailyGameLimit,
        tournamentLaunchAt: body.tournamentLaunchAt ? new Date(body.tournamentLaunchAt) : null,
        ...limits,
        updatedAt: now,
      })
      .where(eq(settings.id, 1))
      .returning();
    await recordAudit(tx, {
      adminId,
      action: 'settings.update',
      targetType: 'settings',
      targetId: '1',
      before,
      after,
    });
  });
}

/** Every plan, active or not, cheapest first. */
export async function listAllPlans(db: Database): Promise<AdminPlan[]> {
  const rows = await db.select().from(plans).orderBy(asc(plans.amountPerDay));
  return rows.map((row) => ({ ...toApiPlan(row), isActive: row.isActive }));
}

const planValues = (body: PlanBody) => ({
  planName: body.planName,
  amountPerDay: nairaToKobo(body.amountPerDay),
  features: body.features,
  isActive: body.isActive,
});

export async function createPlan(db: Database, adminId: string, body: PlanBody) {
  const row = await uniqueName(
    () =>
      inTransaction(db, async (tx) => {
        const [created] = await tx.insert(plans).values(planValues(body)).returning();
        if (!created) throw new Error('plan insert returned nothing');
        await recordAudit(tx, {
          adminId,
          action: 'plan.create',
          targetType: 'plan',
          targetId: created.id,
          after: created,
        });
        return created;
      }),
    PLAN_NAME_TAKEN,
  );
  return toApiPlan(row);
}

/** Price changes apply from the next renewal. */
export async function updatePlan(db: Database, adminId: string, id: string, body: PlanBody) {
  const row = await uniqueName(
    () =>
      inTransaction(db, async (tx) => {
        const [before] = await tx.select().from(plans).where(eq(plans.id, id)).for('update');
        if (!before) throw notFound('Plan not found');
        const [after] = await tx
          .update(plans)
          .set(planValues(body))
          .where(eq(plans.id, id))
          .returning();
        if (!after) throw notFound('Plan not found');
        await recordAudit(tx, {
          adminId,
          action: 'plan.update',
          targetType: 'plan',
          targetId: after.id,
          before,
          after,
        });
        return after;
      }),
    PLAN_NAME_TAKEN,
  );
  return toApiPlan(row);
}

const toApiCategory = (row: typeof categories.$inferSelect): Category => ({
  id: row.id,
  title: row.title,
  emoji: row.emoji,
});

export async function createCategory(
  db: Database,
  adminId: string,
  body: CategoryBody,
): Promise<Category> {
  const row = await uniqueName(
    () =>
      inTransaction(db, async (tx) => {
        const [created] = await tx.insert(categories).values(body).returning();
        if (!created) throw new Error('category insert returned nothing');
        await recordAudit(tx, {
          adminId,
          action: 'category.create',
          targetType: 'category',
          targetId: created.id,
          after: created,
        });
        return created;
      }),
    CATEGORY_TITLE_TAKEN,
  );
  return toApiCategory(row);
}

export async function updateCategory(
  db: Database,
  adminId: string,
  id: string,
  body: CategoryBody,
): Promise<Category> {
  const row = await uniqueName(
    () =>
      inTransaction(db, async (tx) => {
        const [before] = await tx
          .select()
          .from(categories)
          .where(eq(categories.id, id))
          .for('update');
        if (!before) throw notFound('Category not found');
        const [after] = await tx
          .update(categories)
          .set(body)
          .where(eq(categories.id, id))
          .returning();
        if (!after) throw notFound('Category not found');
        await recordAudit(tx, {
          adminId,
          action: 'category.update',
          targetType: 'category',
          targetId: after.id,
          before,
          after,
        });
        return after;
      }),
    CATEGORY_TITLE_TAKEN,
  );
  return toApiCategory(row);
}
