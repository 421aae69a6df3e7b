import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  sandboxPaymentListSchema,
  sandboxReviewBodySchema,
  sandboxReviewResultSchema,
} from '../../../shared/schemas/admin.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import { requireUser } from '../../plugins/auth.ts';
import { listSandboxPayments, markSandboxPaymentReviewed } from './sandbox-review-service.ts';

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
