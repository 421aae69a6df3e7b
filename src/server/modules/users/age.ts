import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/schemas/common.ts';
import { confirmAgeSchema, userSchema } from '../../../shared/schemas/users.ts';
import { users } from '../../db/schema.ts';
import { forbidden } from '../../errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { loadApiUser } from './serialize.ts';

export const AGE_MESSAGES = {
  required:
    'Please confirm you are 18 or older before you play, top up or subscribe. Pluckers is for adults only.',
  confirmed: 'Thank you for confirming you are 18 or older',
} as const;

/**
 * Players must be 18 or over (docs/product.md#who-it-is-for). Sign-up asks; an account made another way (Google)
 * has no confirmation yet and may not play or pay until it gives one.
 */
export function assertAgeConfirmed(account: { ageConfirmedAt: Date | null }): void {
  if (!account.ageConfirmedAt) throw forbidden(AGE_MESSAGES.required);
}

export async function ageConfirmationRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/user/confirm-age',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['users'],
        summary: 'Confirm the player is 18 or older (accounts made with Google)',
        description: 'Needed once before the first play, top-up or plan subscription.',
        security: [{ bearerAuth: [] }],
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
