import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/schemas/common.ts';
import { userSchema } from '../../../shared/schemas/users.ts';
import { requireUser } from '../../plugins/auth.ts';
import { loadApiUser } from './serialize.ts';

export async function userRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/user',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'The signed-in player',
        security: [{ bearerAuth: [] }],
        response: { 200: envelope(userSchema) },
      },
    },
    async (request) => ({ data: await loadApiUser(app.db, requireUser(request).id) }),
  );
}
