import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminPlanSchema,
  categoryBodySchema,
  planBodySchema,
  settingsBodySchema,
} from '../../../shared/schemas/admin.ts';
import { categorySchema } from '../../../shared/schemas/catalogue.ts';
import { envelope, idParamsSchema } from '../../../shared/schemas/common.ts';
import { planSchema } from '../../../shared/schemas/plans.ts';
import { adminSettingsSchema } from '../../../shared/schemas/settings.ts';
import { requireUser } from '../../plugins/auth.ts';
import { getAdminSettings } from '../settings/service.ts';
import {
  createCategory,
  createPlan,
  listAllPlans,
  updateCategory,
  updatePlan,
  updateSettings,
} from './catalogue-service.ts';

/** Operators tune settings, plans and categories; every change is audited. */
export async function adminCatalogueRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

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
      preValidation: app.requireFreshSecondFactor,
      schema: {
        tags,
        summary:
          'Change fees, minimums, the daily limit, the tournament launch, KYC tier caps and the AML review threshold',
        body: settingsBodySchema,
        response: { 200: envelope(adminSettingsSchema) },
      },
    },
    async (request) => {
      await updateSettings(app.db, requireUser(request).id, request.body, app.clock.now());
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
    async () => ({ data: await listAllPlans(app.db) }),
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
      const data = await createPlan(app.db, requireUser(request).id, request.body);
      return reply.status(201).send({ message: 'Plan created', data });
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
    async (request) => ({
      message: 'Plan saved',
      data: await updatePlan(app.db, requireUser(request).id, request.params.id, request.body),
    }),
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
      const data = await createCategory(app.db, requireUser(request).id, request.body);
      return reply.status(201).send({ message: 'Category created', data });
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
    async (request) => ({
      message: 'Category saved',
      data: await updateCategory(app.db, requireUser(request).id, request.params.id, request.body),
    }),
  );
}
