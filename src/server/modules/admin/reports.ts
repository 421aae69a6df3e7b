import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { reportQuerySchema, reportSchema } from '../../../shared/schemas/admin.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import { buildReport } from './reports-service.ts';

export async function adminReportRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/reports',
    {
      schema: {
        tags: ['admin'],
        summary: 'Totals for a date range, a 30-day daily series and the ledger check',
        querystring: reportQuerySchema,
        response: {
          200: envelope(reportSchema),
        },
      },
    },
    async (request) => ({
      data: await buildReport(app.db, app.paymentProviders, request.query, app.clock.now()),
    }),
  );
}
