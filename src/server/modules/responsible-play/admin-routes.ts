import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, idParamsSchema, messageSchema } from '../../../shared/schemas/common.ts';
import {
  adminResponsiblePlaySchema,
  liftExclusionBodySchema,
} from '../../../shared/schemas/responsible-play.ts';
import { inTransaction } from '../../db/transaction.ts';
import { requireUser } from '../../plugins/auth.ts';
import { liftExclusions } from './exclusions.ts';
import { readAdminResponsiblePlay } from './service.ts';

/** The operators' view of a player's limits and breaks, and lifting a break with a reason. */
export async function adminResponsiblePlayRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const admin = ['admin'];

  typed.get(
    '/users/:id/responsible-play',
    {
      schema: {
        tags: admin,
        summary: "A player's limits, reminders and every break, lifted ones with who and why",
        params: idParamsSchema,
        response: { 200: envelope(adminResponsiblePlaySchema) },
      },
    },
    async (request) => ({
      data: await readAdminResponsiblePlay(app.db, request.params.id, app.clock.now()),
    }),
  );

  typed.post(
    '/users/:id/exclusion/lift',
    {
      preValidation: app.requireFreshSecondFactor,
      schema: {
        tags: admin,
        summary:
          "End a player's time-out or self-exclusion early: a reason is required and audited",
        params: idParamsSchema,
        body: liftExclusionBodySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const adminId = requireUser(request).id;
      await inTransaction(app.db, (tx) =>
        liftExclusions(tx, {
          adminId,
          userId: request.params.id,
          reason: request.body.reason,
          now: app.clock.now(),
        }),
      );
      return { message: 'Break lifted' };
    },
  );
}
