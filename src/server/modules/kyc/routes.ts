import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { KYC_DOCUMENT_TYPES, KYC_MESSAGES } from '../../../shared/kyc.ts';
import { envelope } from '../../../shared/schemas/common.ts';
import {
  kycDocumentSchema,
  kycStatusSchema,
  kycVerifyBodySchema,
} from '../../../shared/schemas/kyc.ts';
import type { AppConfig } from '../../config.ts';
import { badRequest } from '../../errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { acceptUploads, readUploadedFile, uploadRouteOptions } from '../../plugins/uploads.ts';
import { createKycProvider } from '../../providers/kyc/index.ts';
import { MAX_DOCUMENT_BYTES, reencodeDocument } from './documents.ts';
import {
  assertMayUploadDocument,
  getKycStatus,
  type KycContext,
  submitDocument,
  verifyIdentity,
} from './service.ts';

/** A player's own KYC: status, identity checks and documents for review (admin-routes.ts). */
export async function kycRoutes(app: FastifyInstance, { config }: { config: AppConfig }) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['kyc'];
  const provider = createKycProvider(config.kyc);
  app.log[provider?.mode === 'live' ? 'info' : 'warn'](
    { mode: config.kyc.mode },
    `kyc: identity checks ${config.kyc.mode === 'live' ? 'through Dojah' : config.kyc.mode === 'sandbox' ? 'on the built-in sandbox (test identities)' : 'unavailable (no KYC_* keys)'}`,
  );
  const context = (): KycContext => ({
    db: app.db,
    provider,
    hashKey: app.secrets.kycHash,
    now: () => app.clock.now(),
    log: app.log,
  });

  typed.get(
    '/kyc',
    {
      schema: {
        tags,
        summary: 'My KYC tier, the caps of every tier, and my checks and documents',
        response: { 200: envelope(kycStatusSchema) },
      },
    },
    async (request) => ({
      data: await getKycStatus(app.db, requireUser(request).id, app.clock.now()),
    }),
  );

  typed.post(
    '/kyc/verify',
    {
      schema: {
        tags,
        summary:
          'Verify my identity with a BVN or NIN (tier 2); a refusal says why, 503 when the provider cannot be reached',
        body: kycVerifyBodySchema,
        response: { 200: envelope(kycStatusSchema) },
      },
    },
    async (request) => {
      const userId = requireUser(request).id;
      await verifyIdentity(context(), userId, request.body);
      return {
        message: KYC_MESSAGES.verified,
        data: await getKycStatus(app.db, userId, app.clock.now()),
      };
    },
  );

  await app.register(async (uploads) => {
    await acceptUploads(uploads, MAX_DOCUMENT_BYTES);
    uploads.withTypeProvider<ZodTypeProvider>().post(
      '/kyc/documents',
      {
        ...uploadRouteOptions(
          MAX_DOCUMENT_BYTES,
          'A photo or scan: JPEG, PNG or WebP, at most 5 MB',
        ),
        schema: {
          tags,
          summary:
            'Upload an identity document for an operator to review (tier 3; JPEG, PNG or WebP, at most 5 MB)',
          consumes: ['multipart/form-data'],
          querystring: z.object({
            type: z.enum(KYC_DOCUMENT_TYPES, { error: 'Choose the kind of document' }),
          }),
          response: { 201: envelope(kycDocumentSchema) },
        },
      },
      async (request, reply) => {
        const userId = requireUser(request).id;
        if (!request.isMultipart()) throw badRequest(KYC_MESSAGES.documentImage);
        // Refused before the image is decoded when it could not be accepted anyway.
        await assertMayUploadDocument(app.db, userId);
        const bytes = await readUploadedFile(request, {
          invalid: KYC_MESSAGES.documentImage,
          tooLarge: KYC_MESSAGES.documentImage,
        });
        const webp = await reencodeDocument(bytes);
        const document = await submitDocument(
          app.db,
          app.fileStore,
          userId,
          request.query.type,
          webp,
        );
        return reply.code(201).send({ message: KYC_MESSAGES.documentSubmitted, data: document });
      },
    );
  });
}
