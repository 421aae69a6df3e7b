import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/schemas/common.ts';
import { confirmAgeSchema, userSchema } from '../../../shared/schemas/users.ts';
import { users } from '../../db/schema.ts';
import { requireUser } from '../../plugins/auth.ts';
import { AGE_MESSAGES } from '../users/age.ts';
import { loadApiUser } from '../users/serialize.ts';

export async function ageConfirmationRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/user/confirm-age',
    {
      schema: {
        tags: ['users'],
        summary: 'Confirm the player is 18 or older (accounts made with Google)',
        description: 'Needed once before the first play, top-up or plan subscription.',
        body: confirmAgeSchema,
        response: { 200: envelope(userSchema) },
      },
    },
    async (request) => {
      const userId = requireUser(request).id;
      // The first confirmation's time is the one kept.
      await app.db
        .update(users)
        .set({ ageConfirmedAt: app.clock.now() })
        .where(and(eq(users.id, userId), isNull(users.ageConfirmedAt)));
      return { message: AGE_MESSAGES.confirmed, data: await loadApiUser(app.db, userId) };
    },
  );
}
