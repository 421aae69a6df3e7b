import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  heldPaymentListSchema,
  holdDecisionBodySchema,
  sandboxPaymentListSchema,
  sandboxReviewBodySchema,
  sandboxReviewResultSchema,
} from '../../../shared/schemas/admin.ts';
import { envelope, messageSchema } from '../../../shared/schemas/common.ts';
import { bankTransferProviderBodySchema } from '../../../shared/schemas/settings.ts';
import { requireUser } from '../../plugins/auth.ts';
import { setBankTransferProvider } from './bank-transfers.ts';
import { listHeldPayments, releaseHeldPayment, returnHeldPayment } from './holds.ts';
import { listSandboxPayments, markSandboxPaymentReviewed } from './sandbox-review-service.ts';

/** The operators' queue of payments that landed past a deposit limit, and what they decide. */
export async function adminHeldPaymentRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const params = z.object({ reference: z.string().min(1).max(100) });

  typed.get(
    '/held-payments',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Payments that landed past a deposit limit: on hold (oldest first), then released or returned',
        response: { 200: envelope(heldPaymentListSchema) },
      },
    },
    async () => ({ data: await listHeldPayments(app.db, app.paymentProviders) }),
  );

  typed.post(
    '/held-payments/:reference/release',
    {
      schema: {
        tags: ['admin'],
        summary:
          "Credit a held payment to the player's wallet, as their deposit limits allow now, with a reason",
        params,
        body: holdDecisionBodySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await releaseHeldPayment(app.db, {
        reference: request.params.reference,
        adminId: requireUser(request).id,
        note: request.body.note,
        now: app.clock.now(),
      });
      return { message: 'Released to the wallet' };
    },
  );

  typed.post(
    '/held-payments/:reference/return',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Return a held payment to the payer: refunded through the provider where it can, else recorded as returned by hand',
        params,
        body: holdDecisionBodySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await returnHeldPayment(app.db, app.paymentProviders, {
        reference: request.params.reference,
        adminId: requireUser(request).id,
        note: request.body.note,
        now: app.clock.now(),
      });
      return { message: 'Returned to the payer' };
    },
  );
}

/** The operators' list of sandbox top-ups and the review that lets payouts resume. */
export async function adminSandboxReviewRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/sandbox-payments',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Successful sandbox top-ups (test money), unreviewed first, and whether they block payouts now',
        response: { 200: envelope(sandboxPaymentListSchema) },
      },
    },
    async () => ({ data: await listSandboxPayments(app.db, app.paymentProviders.sandbox) }),
  );

  typed.post(
    '/sandbox-payments/:reference/review',
    {
      schema: {
        tags: ['admin'],
        summary: 'Mark a successful sandbox top-up reviewed, with a note of what was done',
        params: z.object({ reference: z.string().min(1).max(100) }),
        body: sandboxReviewBodySchema,
        response: { 200: envelope(sandboxReviewResultSchema) },
      },
    },
    async (request) => ({
      message: 'Sandbox top-up marked reviewed',
      data: await markSandboxPaymentReviewed(app.db, {
        adminId: requireUser(request).id,
        reference: request.params.reference,
        note: request.body.note,
        now: app.clock.now(),
      }),
    }),
  );
}

/** Where players' account numbers for top-ups by bank transfer are made. */
export async function adminBankTransferRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().put(
    '/settings/bank-transfer-provider',
    {
      // A settings change like any other: it wants a second factor from the last 15 minutes.
      preValidation: app.requireFreshSecondFactor,
      schema: {
        tags: ['admin'],
        summary:
          "Pick the provider of players' account numbers for bank transfers (Paystack or Flutterwave); numbers already given out keep working",
        body: bankTransferProviderBodySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await setBankTransferProvider(app.db, {
        adminId: requireUser(request).id,
        provider: request.body.provider,
        now: app.clock.now(),
      });
      return { message: 'Saved' };
    },
  );
}
