import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, idParamsSchema } from '../../../shared/schemas/common.ts';
import {
  adminKycDocumentSchema,
  adminUserKycSchema,
  kycDocumentFileSchema,
  kycDocumentQuerySchema,
  kycReviewBodySchema,
} from '../../../shared/schemas/kyc.ts';
import { requireUser } from '../../plugins/auth.ts';
import { documentFile, listDocuments, reviewDocument, userKyc } from './review.ts';

/**
 * Operators review tier-3 documents: the queue, each image (only here, never from /uploads),
 * and approve or reject with the reason audited and sent to the player.
 */
export async function adminKycRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  typed.get(
    '/kyc/documents',
    {
      schema: {
        tags,
        summary: 'Identity documents by status (pending first in, first out)',
        querystring: kycDocumentQuerySchema,
        response: { 200: envelope(z.array(adminKycDocumentSchema)) },
      },
    },
    async (request) => ({ data: await listDocuments(app.db, request.query.status) }),
  );

  typed.get(
    '/kyc/users/:id',
    {
      schema: {
        tags,
        summary: "A player's KYC: tier, verified identity, every check and document",
        params: idParamsSchema,
        response: { 200: envelope(adminUserKycSchema) },
      },
    },
    async (request) => ({ data: await userKyc(app.db, request.params.id, app.clock.now()) }),
  );

  typed.get(
    '/kyc/documents/:id/file',
    {
      schema: {
        tags,
        summary: 'The document image (operators only; never cached)',
        params: idParamsSchema,
        response: {
          200: envelope(kycDocumentFileSchema),
        },
      },
    },
    async (request, reply) => {
      const data = await documentFile(app.db, app.fileStore, request.params.id);
      // As JSON with a data: URL: the console sends its token in a header, which an <img> cannot.
      reply.header('cache-control', 'no-store');
      return { data };
    },
  );

  typed.post(
    '/kyc/documents/:id/review',
    {
      schema: {
        tags,
        summary: 'Approve (tier 3) or reject (with a reason) a pending document; audited',
        params: idParamsSchema,
        body: kycReviewBodySchema,
        response: { 200: envelope(adminKycDocumentSchema) },
      },
    },
    async (request) => ({
      data: await reviewDocument(
        app.db,
        requireUser(request).id,
        request.params.id,
        request.body,
        app.clock.now(),
      ),
    }),
  );
}
