import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, idParamsSchema } from '../../../shared/schemas/common.ts';
import {
  gameListQuerySchema,
  gameListSchema,
  gameSchema,
  playedGameSchema,
  playGameSchema,
  playResultSchema,
} from '../../../shared/schemas/games.ts';
import { requireUser } from '../../plugins/auth.ts';
import { listAnswer } from './list-reads.ts';
import { GAME_MESSAGES, getGame, listPlayedGames, playGame } from './service.ts';

export async function gameRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/game',
    {
      // Compressed once per cached body (listAnswer) rather than once per request.
      compress: false,
      schema: {
        tags: ['games'],
        summary: 'Games of one list: TRENDING, NEW_CHALLANGES, HIGHEST_PAYOUTS or TOURNAMENT',
        querystring: gameListQuerySchema,
        response: { 200: envelope(gameListSchema) },
      },
    },
    async (request, reply) => {
      const { gameType } = request.query;
      const userId = requireUser(request).id;
      const prepared =
        app.gameLists.cachedResponse(gameType, userId) ??
        (await app.gameLists.response(gameType, userId));
      // Already JSON of the response schema above (built from it), so sent as it is.
      const answer = listAnswer(
        prepared,
        request.headers['if-none-match'],
        request.headers['accept-encoding'],
      );
      const untyped = (reply as FastifyReply).code(answer.statusCode).headers(answer.headers);
      return answer.body ? untyped.send(answer.body) : untyped.send();
    },
  );

  typed.get(
    '/game/played',
    {
      schema: {
        tags: ['games'],
        summary: "The caller's submissions, newest first",
        response: { 200: envelope(z.array(playedGameSchema)) },
      },
    },
    async (request) => ({ data: await listPlayedGames(app.db, requireUser(request).id) }),
  );

  typed.get(
    '/game/:id',
    {
      schema: {
        tags: ['games'],
        summary: 'One game (for shared links)',
        params: idParamsSchema,
        response: { 200: envelope(gameSchema) },
      },
    },
    async (request) => ({
      data: await getGame(app.db, request.params.id, requireUser(request).id),
    }),
  );

  typed.post(
    '/game/play',
    {
      schema: {
        tags: ['games'],
        summary: 'Answer a game (takes a place and debits the entry fee)',
        body: playGameSchema,
        response: { 201: envelope(playResultSchema) },
      },
    },
    async (request, reply) => {
      const actor = requireUser(request);
      const data = await playGame(app.db, actor, request.body, app.clock.now());
      app.gameLists.recordPlay(actor.id, data.gameID);
      // A play in one statement notified no one; one through the full play was already
      // announced by the triggers, and hearing of it twice costs an instance nothing.
      app.clusterEvents.announcePlay(actor.id, data.gameID);
      return reply.status(201).send({ message: GAME_MESSAGES.submitted, data });
    },
  );
}
