import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bankSchema, categorySchema } from '../../../shared/schemas/catalogue.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import { banks, categories } from '../../db/schema.ts';

/** Reference lists the client caches: game categories and Nigerian banks. */
export async function catalogueRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/category',
    {
      schema: {
        tags: ['categories'],
        summary: 'Game categories with their emoji',
        response: { 200: envelope(z.array(categorySchema)) },
      },
    },
    async () => ({
      data: await app.db
        .select({ id: categories.id, title: categories.title, emoji: categories.emoji })
        .from(categories)
        .orderBy(asc(categories.title)),
    }),
  );

  typed.get(
    '/bank',
    {
      schema: {
        tags: ['banks'],
        summary: 'Nigerian banks a player can withdraw to',
        response: { 200: envelope(z.array(bankSchema)) },
      },
    },
    async () => ({
      data: await app.db
        .select({ id: banks.id, bankName: banks.bankName, code: banks.code })
        .from(banks)
        .orderBy(asc(banks.bankName)),
    }),
  );
}
