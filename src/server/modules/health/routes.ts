import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pingDatabase } from '../../db/client.ts';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'unreachable']),
  databaseKind: z.enum(['pglite', 'postgres']),
});

export async function healthRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database reachability',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      const databaseKind = app.database.kind;
      try {
        await pingDatabase(app.db);
        return { status: 'ok' as const, database: 'ok' as const, databaseKind };
      } catch (error) {
        app.log.error({ err: error }, 'health check: database unreachable');
        return reply
          .status(503)
          .send({ status: 'unavailable', database: 'unreachable', databaseKind });
      }
    },
  );
}
