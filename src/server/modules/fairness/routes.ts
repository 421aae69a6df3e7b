import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/schemas/common.ts';
import { fairnessLogPageSchema, fairnessLogQuerySchema } from '../../../shared/schemas/fairness.ts';
import { readFairnessLog } from './log.ts';

export async function fairnessRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/fairness/log',
    {
      schema: {
        tags: ['draws'],
        summary:
          'The public fairness log: commitments, seals, beacon rounds, results and cancellations, each chained to the one before',
        querystring: fairnessLogQuerySchema,
        response: { 200: envelope(fairnessLogPageSchema) },
      },
    },
    async (request) => ({
      data: await readFairnessLog(app.db, request.query.from, request.query.limit),
    }),
  );
}
