import { count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditPageSchema } from '../../../shared/schemas/admin.ts';
import { envelope, pageQuerySchema } from '../../../shared/schemas/common.ts';
import { adminAudit, users } from '../../db/schema.ts';
import { paginate } from '../../lib/pagination.ts';

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
    async (request) => {
      const { page } = request.query;
      const [rows, [total]] = await Promise.all([
        app.db
          .select({ entry: adminAudit, email: users.email })
          .from(adminAudit)
          .innerJoin(users, eq(users.id, adminAudit.adminId))
          .orderBy(desc(adminAudit.id))
          .limit(25)
          .offset((page - 1) * 25),
        app.db.select({ total: count() }).from(adminAudit),
      ]);
      return {
        data: {
          entries: rows.map(({ entry, email }) => ({
            id: entry.id,
            admin: email,
            action: entry.action,
            targetType: entry.targetType,
            targetId: entry.targetId,
            before: entry.before,
            after: entry.after,
            createdAt: entry.createdAt.toISOString(),
          })),
          pagination: paginate(total?.total ?? 0, page, 25),
        },
      };
    },
  );
}
