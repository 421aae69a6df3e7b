import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/schemas/common.ts';
import { bankAccountBodySchema, resolvedBankAccountSchema } from '../../../shared/schemas/users.ts';
import { requireUser } from '../../plugins/auth.ts';
import { resolveBankAccount } from './bank-accounts.ts';

/** Each lookup asks the payment provider; enough for typos, too few to map account names. */
const LOOKUPS_PER_MINUTE = 10;

export async function bankAccountResolveRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/bank-account/resolve',
    {
      // Per player, after authentication: a player needs one or two lookups, and counting per
      // client address would let one busy carrier NAT address (many subscribers) use up the
      // budget of everyone behind it. Unauthenticated calls are refused before this counts.
      config: {
        rateLimit: {
          max: LOOKUPS_PER_MINUTE,
          timeWindow: 60_000,
          hook: 'preHandler',
          keyGenerator: (request) => `bank-lookup:${requireUser(request).id}`,
        },
      },
      schema: {
        tags: ['withdrawals'],
        summary: 'Look up the name on a bank account before saving it',
        body: bankAccountBodySchema,
        response: { 200: envelope(resolvedBankAccountSchema) },
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
