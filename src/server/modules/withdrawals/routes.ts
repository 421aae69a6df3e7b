import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, pageQuerySchema } from '../../../shared/schemas/common.ts';
import { bankAccountSchema, saveBankAccountBodySchema } from '../../../shared/schemas/users.ts';
import {
  withdrawalBodySchema,
  withdrawalPageSchema,
  withdrawalSchema,
} from '../../../shared/schemas/wallet.ts';
import type { AppConfig } from '../../config.ts';
import { requireUser } from '../../plugins/auth.ts';
import { bankAccountAddedMail, bankAccountChangedMail } from '../auth/emails.ts';
import { authContextOf } from '../auth/service.ts';
import { proveReplacementAllowed } from './bank-accounts.ts';
import {
  listWithdrawals,
  requestWithdrawal,
  saveBankAccount,
  WITHDRAWAL_MESSAGES,
} from './service.ts';

const IDEMPOTENCY_KEY_RULE = 'Idempotency-Key must be 8 to 100 characters';

export async function withdrawalRoutes(app: FastifyInstance, { config }: { config: AppConfig }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const context = authContextOf(app, config.publicUrl);

  typed.post(
    '/bank-account',
    {
      schema: {
        tags: ['withdrawals'],
        summary: 'Save the bank account withdrawals go to (name resolved with the bank)',
        description:
          'Replacing an existing account needs the current password (an account without one: `code`, e-mailed by POST /user/step-up-code). The owner is e-mailed on every change.',
        body: saveBankAccountBodySchema,
        response: { 200: envelope(bankAccountSchema) },
      },
    },
    async (request) => {
      const userId = requireUser(request).id;
      await proveReplacementAllowed(context, userId, request.body);
      return {
        message: WITHDRAWAL_MESSAGES.bankSaved,
        data: await saveBankAccount(
          app.db,
          app.paymentProviders.payouts,
          app.sendMailSafely,
          { added: bankAccountAddedMail, changed: bankAccountChangedMail },
          userId,
          request.body,
        ),
      };
    },
  );

  typed.post(
    '/withdrawal',
    {
      schema: {
        tags: ['withdrawals'],
        summary: 'Request a withdrawal (send Idempotency-Key to make retries safe)',
        headers: z.object({
          'idempotency-key': z
            .string()
            .min(8, IDEMPOTENCY_KEY_RULE)
            .max(100, IDEMPOTENCY_KEY_RULE)
            .optional(),
        }),
        body: withdrawalBodySchema,
        response: { 200: envelope(withdrawalSchema), 201: envelope(withdrawalSchema) },
      },
    },
    async (request, reply) => {
      const { withdrawal, replayed } = await requestWithdrawal(
        app.db,
        requireUser(request),
        request.body.amount,
        request.headers['idempotency-key'] ?? null,
        app.clock.now(),
      );
      return reply
        .status(replayed ? 200 : 201)
        .send({ message: WITHDRAWAL_MESSAGES.requested, data: withdrawal });
    },
  );

  typed.get(
    '/withdrawal',
    {
      schema: {
        tags: ['withdrawals'],
        summary: "The caller's withdrawals, newest first",
        querystring: pageQuerySchema,
        response: { 200: envelope(withdrawalPageSchema) },
      },
    },
    async (request) => ({
      data: await listWithdrawals(app.db, requireUser(request).id, request.query.page),
    }),
  );
}
