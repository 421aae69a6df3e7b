import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../../shared/schemas/common.ts';
import { supportTicketSchema } from '../../../shared/schemas/support.ts';
import { latestTickets } from './service.ts';

/** The operators' view of the support page's messages (under /api/v1/admin: api.ts). */
export async function adminSupportRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/support-tickets',
    {
      schema: {
        tags: ['admin'],
        summary: 'The newest messages from the support page (100)',
        response: { 200: envelope(z.array(supportTicketSchema)) },
      },
    },
    async () => ({ data: await latestTickets(app.db) }),
  );
}
