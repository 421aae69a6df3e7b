import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope } from '../../../shared/schemas/common.ts';
import { settingsSchema } from '../../../shared/schemas/settings.ts';
import { getSettings } from './service.ts';

export async function settingsRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/settings',
    {
      schema: {
        tags: ['settings'],
        summary: 'Public settings: fees, minimum payment and daily game limit',
        response: { 200: envelope(settingsSchema) },
      },
    },
    async () => ({ data: await getSettings(app.db) }),
  );
}
