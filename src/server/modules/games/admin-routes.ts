import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminEntrySchema,
  adminGameBodySchema,
  adminGameListQuerySchema,
  adminGamePageSchema,
  cancelGameBodySchema,
} from '../../../shared/schemas/admin.ts';
import { envelope, idParamsSchema, messageSchema } from '../../../shared/schemas/common.ts';
import { gameSchema } from '../../../shared/schemas/games.ts';
import { requireUser } from '../../plugins/auth.ts';
import {
  cancelGame,
  closeGame,
  createGame,
  listEntries,
  listGames,
  updateGame,
} from './admin-service.ts';

export async function adminGameRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];
  // Every write below changes games that players' lists show; whether it succeeded or not,
  // the lists are rebuilt before the operator sees the answer.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET') app.gameLists.invalidate();
    return payload;
  });

  typed.get(
    '/games',
    {
      schema: {
        tags,
        summary: 'All games, newest first, filtered by status, list type or category',
        querystring: adminGameListQuerySchema,
        response: {
          200: envelope(adminGamePageSchema),
        },
      },
    },
    async (request) => ({ data: await listGames(app.db, request.query) }),
  );

  typed.post(
    '/games',
    {
      schema: {
        tags,
        summary: 'Create a game',
        body: adminGameBodySchema,
        response: { 201: envelope(gameSchema) },
      },
    },
    async (request, reply) => {
      const data = await createGame(app.db, requireUser(request).id, request.body, app.clock.now());
      return reply.status(201).send({ message: 'Game created', data });
    },
  );

  typed.put(
    '/games/:id',
    {
      schema: {
        tags,
        summary: 'Edit a game nobody has played yet',
        params: idParamsSchema,
        body: adminGameBodySchema,
        response: { 200: envelope(gameSchema) },
      },
    },
    async (request) => ({
      message: 'Game updated',
      data: await updateGame(
        app.db,
        requireUser(request).id,
        request.params.id,
        request.body,
        app.clock.now(),
      ),
    }),
  );

  typed.post(
    '/games/:id/close',
    {
      schema: {
        tags,
        summary: 'Close a game now and queue its draw',
        params: idParamsSchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      await closeGame(app.db, requireUser(request).id, request.params.id, app.clock.now());
      return { message: 'Game closed. The draw runs in a moment.' };
    },
  );

  typed.post(
    '/games/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a game and refund every entry fee',
        params: idParamsSchema,
        body: cancelGameBodySchema,
        response: { 200: messageSchema },
      },
    },
    async (request) => {
      const refunded = await cancelGame(
        app.db,
        app.beacon.chain,
        request.params.id,
        request.body.reason,
        app.clock.now(),
      );
      return { message: `Game cancelled; ${refunded} player(s) refunded and notified` };
    },
  );

  typed.get(
    '/games/:id/entries',
    {
      schema: {
        tags,
        summary: "A game's entries with answers",
        params: idParamsSchema,
        response: { 200: envelope(z.array(adminEntrySchema)) },
      },
    },
    async (request) => ({ data: await listEntries(app.db, request.params.id) }),
  );
}
