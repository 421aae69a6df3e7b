import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../../shared/schemas/common.ts';
import { leaderboardEntrySchema, leaderboardQuerySchema } from '../../../shared/schemas/games.ts';
import { leaderboard } from './service.ts';

export async function leaderboardRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/leaderboard',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['leaderboard'],
        summary: 'Top players for a date window and category',
        security: [{ bearerAuth: [] }],
        querystring: leaderboardQuerySchema,
        response: { 200: envelope(z.array(leaderboardEntrySchema)) },
      },
    },
    async (request) => ({ data: await leaderboard(app.db, request.query) }),
  );
}
