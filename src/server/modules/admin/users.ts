import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { koboToNaira } from '../../../shared/money.ts';
import {
  adjustmentBodySchema,
  adjustmentResultSchema,
  adminUserDetailSchema,
  adminUserPageSchema,
  adminUserQuerySchema,
  suspendBodySchema,
} from '../../../shared/schemas/admin.ts';
import { envelope, idParamsSchema, messageSchema } from '../../../shared/schemas/common.ts';
import { requireUser } from '../../plugins/auth.ts';
import { adjustWallet, searchUsers, setSuspension, userDetail } from './users-service.ts';

export async function adminUserRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  typed.get(
    '/users',
    {
      schema: {
        tags,
        summary: 'Search players by name, e-mail, phone or username',
        querystring: adminUserQuerySchema,
        response: {
          200: envelope(adminUserPageSchema),
        },
      },
    },
    async (request) => ({
      data: await searchUsers(app.db, request.query.q, request.query.page),
    }),
  );

  typed.get(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'A player with their wallet ledger, plays, payments and withdrawals',
        params: idParamsSchema,
        response: {
          200: envelope(adminUserDetailSchema),
        },
      },
    },
    async (request) => ({ data: await userDetail(app.db, request.params.id) }),
  );

  for (const suspend of [true, false]) {
    typed.post(
      `/users/:id/${suspend ? 'suspend' : 'unsuspend'}`,
      {
        schema: {
          tags,
          summary: suspend
            ? 'Suspend a player: their tokens stop working and login says why'
            : 'Lift a suspension',
          params: idParamsSchema,
          body: suspend ? suspendBodySchema : z.object({}).optional(),
          response: { 200: messageSchema },
        },
      },
      async (request) => {
        await setSuspension(app.db, {
          adminId: requireUser(request).id,
          userId: request.params.id,
          suspendFor: suspend ? (request.body as { reason: string }).reason : null,
          now: app.clock.now(),
        });
        app.tokens.forgetUser(request.params.id);
        return { message: suspend ? 'Player suspended' : 'Suspension lifted' };
      },
    );
  }

  typed.post(
    '/users/:id/adjust',
    {
      preValidation: app.requireFreshSecondFactor,
      schema: {
        tags,
        summary: 'A manual wallet adjustment: one balanced ledger transaction with a reason',
        params: idParamsSchema,
        body: adjustmentBodySchema,
        response: { 200: messageSchema.extend({ data: adjustmentResultSchema }) },
      },
    },
    async (request) => {
      const balance = await adjustWallet(app.db, {
        adminId: requireUser(request).id,
        userId: request.params.id,
        amount: request.body.amount,
        reason: request.body.reason,
      });
      return { message: 'Wallet adjusted', data: { accountBalance: koboToNaira(balance) } };
    },
  );
}
