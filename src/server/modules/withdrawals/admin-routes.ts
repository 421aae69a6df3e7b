import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminWithdrawalPageSchema,
  adminWithdrawalQuerySchema,
  approvedWithdrawalSchema,
  ledgerCheckSchema,
} from '../../../shared/schemas/admin.ts';
import { envelope, idParamsSchema, messageSchema } from '../../../shared/schemas/common.ts';
import {
  approveWithdrawalBodySchema,
  rejectWithdrawalBodySchema,
  withdrawalSchema,
} from '../../../shared/schemas/wallet.ts';
import { requireUser } from '../../plugins/auth.ts';
import { checkLedger } from '../wallet/ledger-check.ts';
import { listWithdrawalsForAdmin } from './admin-list.ts';
import { approveWithdrawal, rejectWithdrawal } from './decisions.ts';

/** The operators' withdrawal queue and decisions, and the ledger check that gates payouts. */
export async function adminWithdrawalRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/withdrawals',
    {
      schema: {
        tags: ['admin'],
        summary: 'Withdrawals queue: pending first, oldest first',
        description:
          'Each withdrawal lists the anti-money-laundering rules that held it for review (`holdReasons`, empty when none did); `held=true` lists only held ones.',
        querystring: adminWithdrawalQuerySchema,
        response: {
          200: envelope(adminWithdrawalPageSchema),
        },
      },
    },
    async (request) => ({ data: await listWithdrawalsForAdmin(app.db, request.query) }),
  );

  typed.post(
    '/withdrawals/:id/approve',
    {
      preValidation: app.requireFreshSecondFactor,
      schema: {
        tags: ['admin'],
        summary: 'Pay a pending withdrawal (provider transfer, or mark paid with a reference)',
        description:
          'A withdrawal held for review (non-empty `holdReasons`) needs a `reviewNote`: without one the answer is 400 and nothing changes. The note and the reasons go to the audit log.',
        params: idParamsSchema,
        body: approveWithdrawalBodySchema,
        response: { 200: envelope(approvedWithdrawalSchema) },
      },
    },
    async (request) => {
      const data = await approveWithdrawal(
        app.db,
        app.paymentProviders,
        requireUser(request).id,
        request.params.id,
        request.body.paidReference ?? null,
        app.clock.now(),
        request.body.reviewNote ?? null,
      );
      return { message: `Withdrawal ${data.internalStatus.toLowerCase()}`, data };
    },
  );

  typed.post(
    '/withdrawals/:id/reject',
    {
      schema: {
        tags: ['admin'],
        summary: 'Reject a pending withdrawal; the wallet gets amount and fee back',
        description: 'Audited with the reason and any hold reasons.',
        params: idParamsSchema,
        body: rejectWithdrawalBodySchema,
        response: { 200: envelope(withdrawalSchema) },
      },
    },
    async (request) => ({
      message: 'Withdrawal rejected and refunded',
      data: await rejectWithdrawal(
        app.db,
        requireUser(request).id,
        request.params.id,
        request.body.reason,
        app.clock.now(),
      ),
    }),
  );

  typed.get(
    '/ledger/check',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every ledger invariant with the rows that break it',
        response: { 200: messageSchema.extend({ data: ledgerCheckSchema }) },
      },
    },
    async () => {
      const result = await checkLedger(app.db, app.paymentProviders);
      return {
        message: result.ok ? 'The books balance' : 'Ledger invariants are broken',
        data: result,
      };
    },
  );
}
