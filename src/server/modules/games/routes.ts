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
import { acceptsGzip, COMPRESSION_THRESHOLD_BYTES, gzipOnce } from '../../lib/compression.ts';
import { noneMatchHits } from '../../lib/etag.ts';
import { requireUser } from '../../plugins/auth.ts';
import { GAME_MESSAGES, getGame, listPlayedGames, playGame } from './service.ts';

export async function gameRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/game',
    {
      // Compressed here from the cached body, once per body rather than once per request.
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
      const { body, etag } =
        app.gameLists.cachedResponse(gameType, userId) ??
        (await app.gameLists.response(gameType, userId));
      // Already JSON of the response schema above (built from it), so sent as it is. Private:
      // the played marks make it this player's; no-cache: the browser keeps it and asks again
      // with its tag, and a list unchanged since costs a 304 of no body.
      const untyped = (reply as FastifyReply)
        .header('etag', etag)
        .header('cache-control', 'private, no-cache')
        .header('vary', 'accept-encoding');
      if (noneMatchHits(request.headers['if-none-match'], etag)) return untyped.code(304).send();
      untyped.type('application/json; charset=utf-8');
      if (
        body.length < COMPRESSION_THRESHOLD_BYTES ||
        !acceptsGzip(request.headers['accept-encoding'])
      )
        return untyped.send(body);
      return untyped.header('content-encoding', 'gzip').send(gzipOnce(body));
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
