import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../../shared/schemas/common.ts';
import { bankAccountBodySchema } from '../../../shared/schemas/users.ts';
import { requireUser } from '../../plugins/auth.ts';
import { resolveBankAccount } from './bank-accounts.ts';

export async function bankAccountResolveRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/bank-account/resolve',
    {
      preValidation: app.authenticate,
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: {
        tags: ['withdrawals'],
        summary: 'Look up the name on a bank account before saving it',
        security: [{ bearerAuth: [] }],
        body: bankAccountBodySchema,
        response: { 200: envelope(z.object({ accountName: z.string(), bankName: z.string() })) },
      },
    },
    async (request) => {
      const { bank, accountName } = await resolveBankAccount(
        app.db,
        app.paymentProviders.payouts,
        requireUser(request).id,
        request.body,
      );
      return { data: { accountName, bankName: bank.bankName } };
    },
  );
}
