import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/schemas/common.ts';
import {
  supportTicketBodySchema,
  supportTicketCreatedSchema,
} from '../../../shared/schemas/support.ts';
import { createTicket, ticketMail } from './service.ts';

/** Per client address: enough for a real person, not for filling the table or mailing spam. */
const TICKETS_PER_HOUR = 5;

export async function supportRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    '/support',
    {
      config: { rateLimit: { max: TICKETS_PER_HOUR, timeWindow: 60 * 60_000 } },
      schema: {
        tags: ['support'],
        summary: 'A message from the support page: stored for operators, reference e-mailed',
        description:
          'Open to visitors as the support page is. Answers with the ticket reference at once; the receipt is mailed after the answer.',
        body: supportTicketBodySchema,
        response: { 201: envelope(supportTicketCreatedSchema) },
      },
    },
    async (request, reply) => {
      // The support page is public: tickets are not tied to an account (user_id stays empty).
      const reference = await createTicket(app.db, request.body, null);
      app.background.run('support ticket receipt', () =>
        app.sendMailSafely(ticketMail(request.body, reference)),
      );
      return reply.code(201).send({
        message: `Ticket ${reference}: we have e-mailed you the reference.`,
        data: { reference },
      });
    },
  );
}
