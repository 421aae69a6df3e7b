import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditPageSchema } from '../../../shared/schemas/admin.ts';
import { envelope, pageQuerySchema } from '../../../shared/schemas/common.ts';
import { readAuditPage } from '../audit/log.ts';

export async function adminAuditRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/audit',
    {
      schema: {
        tags: ['admin'],
        summary: 'The audit log, newest first',
        querystring: pageQuerySchema,
        response: {
          200: envelope(auditPageSchema),
        },
      },
    },
    async (request) => ({ data: await readAuditPage(app.db, request.query.page) }),
  );
}
