import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, idParamsSchema } from '../../../shared/schemas/common.ts';
import { drawProofSchema } from '../../../shared/schemas/games.ts';
import { loadDrawProof } from './proof.ts';

/** The public proof of a game's draw: anyone may check it, signed in or not. */
export async function drawRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/game/:id/draw',
    {
      schema: {
        tags: ['draws'],
        summary: 'Public proof of the draw: commitment, then seed, entries and winners',
        params: idParamsSchema,
        response: { 200: envelope(drawProofSchema) },
      },
    },
    async (request) => ({
      data: await loadDrawProof(app.db, app.beacon.chain, request.params.id),
    }),
  );
}
