import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, pageQuerySchema } from '../../../shared/schemas/common.ts';
import {
  paymentMethodNameSchema,
  paymentOutcomeSchema,
  paymentPageSchema,
  paymentReferenceParamsSchema,
  topUpBodySchema,
  topUpResponseSchema,
} from '../../../shared/schemas/wallet.ts';
import type { AppConfig } from '../../config.ts';
import { badRequest } from '../../errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { ProviderError } from '../../providers/payments/types.ts';
import { getPaymentOutcome, listPayments, paymentsContextOf, startTopUp } from './service.ts';

/** A signed-in player's top-ups; the providers' side of a payment is in routes.ts. */
export async function topUpRoutes(app: FastifyInstance, { config }: { config: AppConfig }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const ctx = () => paymentsContextOf(app, config.publicUrl);

  typed.post(
    '/payment/:method',
    {
      schema: {
        tags: ['payments'],
        summary: 'Start a card top-up; returns the checkout URL',
        params: z.object({ method: paymentMethodNameSchema }),
        body: topUpBodySchema,
        response: { 200: envelope(topUpResponseSchema) },
      },
    },
    async (request) => {
      try {
        const data = await startTopUp(
          ctx(),
          requireUser(request),
          request.params.method,
          request.body.amount,
        );
        return { message: 'Complete your payment on the checkout page', data };
      } catch (error) {
        if (error instanceof ProviderError) {
          request.log.warn({ err: error }, 'top-up: provider refused the checkout');
          throw badRequest(
            'The payment provider is not available right now. Please try again shortly.',
          );
        }
        throw error;
      }
    },
  );

  typed.get(
    '/payment',
    {
      schema: {
        tags: ['payments'],
        summary: "The caller's top-ups, newest first",
        querystring: pageQuerySchema,
        response: { 200: envelope(paymentPageSchema) },
      },
    },
    async (request) => ({
      data: await listPayments(app.db, requireUser(request).id, request.query.page),
    }),
  );

  typed.get(
    '/payment/status/:reference',
    {
      schema: {
        tags: ['payments'],
        summary:
          "One of the caller's top-ups by its reference: its status and the server's sentence about it (404 for anyone else's)",
        params: paymentReferenceParamsSchema,
        response: { 200: envelope(paymentOutcomeSchema) },
      },
    },
    async (request) => ({
      data: await getPaymentOutcome(app.db, requireUser(request).id, request.params.reference),
    }),
  );
}
