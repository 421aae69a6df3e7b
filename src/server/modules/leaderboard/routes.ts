import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../../shared/schemas/common.ts';
import {
  leaderboardEntrySchema,
  leaderboardQuerySchema,
  leaderboardRankSchema,
} from '../../../shared/schemas/games.ts';
import { requireUser } from '../../plugins/auth.ts';
import { leaderboard, myRank } from './service.ts';

export async function leaderboardRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/leaderboard',
    {
      schema: {
        tags: ['leaderboard'],
        summary: 'Top players for a date window and category',
        querystring: leaderboardQuerySchema,
        response: { 200: envelope(z.array(leaderboardEntrySchema)) },
      },
    },
    async (request) => ({ data: await leaderboard(app.db, request.query) }),
  );

  app.withTypeProvider<ZodTypeProvider>().get(
    '/leaderboard/me',
    {
      schema: {
        tags: ['leaderboard'],
        summary: "The signed-in player's own rank on the same board, even outside the page",
        querystring: leaderboardQuerySchema.omit({ pageSize: true }),
        response: { 200: envelope(leaderboardRankSchema) },
      },
    },
    async (request) => ({
      data: await myRank(app.db, requireUser(request).id, request.query),
    }),
  );
}
