import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { VALIDATION_MESSAGES } from '../../../shared/messages.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import { planSchema, subscribeParamsSchema } from '../../../shared/schemas/plans.ts';
import { userSchema } from '../../../shared/schemas/users.ts';
import { badRequest } from '../../errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { listPlans, PLAN_MESSAGES, subscribe } from './service.ts';

export async function planRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/plan',
    {
      schema: {
        tags: ['plans'],
        summary: 'Plans with their features; weeklyPrice = amountPerDay × 7',
        response: { 200: envelope(z.array(planSchema)) },
      },
    },
    async () => ({ data: await listPlans(app.db) }),
  );
}

/** Subscribing, for signed-in players (registered in the players' scope: api.ts). */
export async function subscriptionRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post('/plan/subscribe', { schema: { hide: true } }, async () => {
    throw badRequest(VALIDATION_MESSAGES.planId);
  });

  typed.post(
    '/plan/subscribe/:id',
    {
      schema: {
        tags: ['plans'],
        summary: 'Subscribe from the wallet (first week debited now, renews weekly)',
        params: subscribeParamsSchema,
        response: { 200: envelope(userSchema) },
      },
    },
    async (request) => ({
      message: PLAN_MESSAGES.subscribed,
      data: await subscribe(app.db, requireUser(request), request.params.id, app.clock.now()),
    }),
  );
}
