import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { nairaToKobo } from '../../../shared/money.ts';
import {
  adminPlanSchema,
  categoryBodySchema,
  planBodySchema,
  settingsBodySchema,
  tierCapOrderIssue,
} from '../../../shared/schemas/admin.ts';
import { categorySchema } from '../../../shared/schemas/catalogue.ts';
import { envelope, idParamsSchema } from '../../../shared/schemas/common.ts';
import { planSchema } from '../../../shared/schemas/plans.ts';
import { adminSettingsSchema } from '../../../shared/schemas/settings.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { categories, plans, settings } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { badRequest, conflict, ErrorCode, notFound } from '../../errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/record.ts';
import { toApiPlan } from '../plans/service.ts';
import { getAdminSettings } from '../settings/service.ts';

/** Operators tune settings, plans and categories; every change is audited. */
export async function adminCatalogueRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  const uniqueName = async <T>(work: () => Promise<T>, message: string) => {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(message);
      throw error;
    }
  };

  typed.get(
    '/settings',
    {
      schema: {
        tags,
        summary: 'Every setting, with the KYC tier caps and the AML review threshold',
        response: { 200: envelope(adminSettingsSchema) },
      },
    },
    async () => ({ data: await getAdminSettings(app.db) }),
  );

  typed.put(
    '/settings',
    {
      schema: {
        tags,
        summary:
          'Change fees, minimums, the daily limit, the tournament launch, KYC tier caps and the AML review threshold',
        body: settingsBodySchema,
        response: { 200: envelope(adminSettingsSchema) },
      },
    },
    async (request) => {
      const adminId = requireUser(request).id;
      const { body } = request;
      // Naira in, kobo stored; absent: unchanged, null: no cap.
      const cap = (value: number | null | undefined) =>
        value === undefined ? undefined : value === null ? null : nairaToKobo(value);
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
      await inTransaction(app.db, async (tx) => {
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
            updatedAt: app.clock.now(),
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
      return { message: 'Settings saved', data: await getAdminSettings(app.db) };
    },
  );

  typed.get(
    '/plans',
    {
      schema: {
        tags,
        summary: 'All plans, active or not',
        response: { 200: envelope(z.array(adminPlanSchema)) },
      },
    },
    async () => ({
      data: (await app.db.select().from(plans).orderBy(asc(plans.amountPerDay))).map((row) => ({
        ...toApiPlan(row),
        isActive: row.isActive,
      })),
    }),
  );

  typed.post(
    '/plans',
    {
      schema: {
        tags,
        summary: 'Create a plan',
        body: planBodySchema,
        response: { 201: envelope(planSchema) },
      },
    },
    async (request, reply) => {
      const adminId = requireUser(request).id;
      const row = await uniqueName(
        () =>
          inTransaction(app.db, async (tx) => {
            const [created] = await tx
              .insert(plans)
              .values({
                planName: request.body.planName,
                amountPerDay: nairaToKobo(request.body.amountPerDay),
                features: request.body.features,
                isActive: request.body.isActive,
              })
              .returning();
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
        'A plan with this name already exists',
      );
      return reply.status(201).send({ message: 'Plan created', data: toApiPlan(row) });
    },
  );

  typed.put(
    '/plans/:id',
    {
      schema: {
        tags,
        summary: 'Edit a plan (price changes apply from the next renewal)',
        params: idParamsSchema,
        body: planBodySchema,
        response: { 200: envelope(planSchema) },
      },
    },
    async (request) => {
      const adminId = requireUser(request).id;
      const row = await uniqueName(
        () =>
          inTransaction(app.db, async (tx) => {
            const [before] = await tx
              .select()
              .from(plans)
              .where(eq(plans.id, request.params.id))
              .for('update');
            if (!before) throw notFound('Plan not found');
            const [after] = await tx
              .update(plans)
              .set({
                planName: request.body.planName,
                amountPerDay: nairaToKobo(request.body.amountPerDay),
                features: request.body.features,
                isActive: request.body.isActive,
              })
              .where(eq(plans.id, request.params.id))
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
        'A plan with this name already exists',
      );
      return { message: 'Plan saved', data: toApiPlan(row) };
    },
  );

  typed.post(
    '/categories',
    {
      schema: {
        tags,
        summary: 'Create a category',
        body: categoryBodySchema,
        response: { 201: envelope(categorySchema) },
      },
    },
    async (request, reply) => {
      const adminId = requireUser(request).id;
      const row = await uniqueName(
        () =>
          inTransaction(app.db, async (tx) => {
            const [created] = await tx.insert(categories).values(request.body).returning();
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
        'A category with this title already exists',
      );
      return reply.status(201).send({
        message: 'Category created',
        data: { id: row.id, title: row.title, emoji: row.emoji },
      });
    },
  );

  typed.put(
    '/categories/:id',
    {
      schema: {
        tags,
        summary: 'Rename a category or change its emoji',
        params: idParamsSchema,
        body: categoryBodySchema,
        response: { 200: envelope(categorySchema) },
      },
    },
    async (request) => {
      const adminId = requireUser(request).id;
      const row = await uniqueName(
        () =>
          inTransaction(app.db, async (tx) => {
            const [before] = await tx
              .select()
              .from(categories)
              .where(eq(categories.id, request.params.id))
              .for('update');
            if (!before) throw notFound('Category not found');
            const [after] = await tx
              .update(categories)
              .set(request.body)
              .where(eq(categories.id, request.params.id))
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
        'A category with this title already exists',
      );
      return {
        message: 'Category saved',
        data: { id: row.id, title: row.title, emoji: row.emoji },
      };
    },
  );
}
