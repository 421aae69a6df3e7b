import { and, asc, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { KYC_DOCUMENT_LABELS } from '../../../shared/kyc.ts';
import { envelope, idParamsSchema } from '../../../shared/schemas/common.ts';
import {
  type AdminKycDocument,
  adminKycDocumentSchema,
  adminUserKycSchema,
  kycDocumentFileSchema,
  kycDocumentQuerySchema,
  kycReviewBodySchema,
} from '../../../shared/schemas/kyc.ts';
import { identityVerifications, kycDocuments, users } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { conflict, notFound } from '../../errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { recordAudit } from '../audit/record.ts';
import { notify } from '../notifications/service.ts';
import { FAILURE_MESSAGES, getKycStatus } from './service.ts';

const ALREADY_REVIEWED = 'This document has already been reviewed';

const columns = {
  document: kycDocuments,
  fullname: users.fullname,
  email: users.email,
  tier: users.kycTier,
  verifiedName: users.verifiedName,
  verifiedBirthDate: users.verifiedBirthDate,
};

function toAdmin(row: {
  document: typeof kycDocuments.$inferSelect;
  fullname: string;
  email: string;
  tier: number;
  verifiedName: string | null;
  verifiedBirthDate: string | null;
}): AdminKycDocument {
  const { document } = row;
  return {
    id: document.id,
    userId: document.userId,
    documentType: document.documentType,
    status: document.status,
    reviewNote: document.reviewNote,
    createdAt: document.createdAt.toISOString(),
    reviewedAt: document.reviewedAt?.toISOString() ?? null,
    fullname: row.fullname,
    email: row.email,
    tier: row.tier,
    verifiedName: row.verifiedName,
    verifiedBirthDate: row.verifiedBirthDate,
    fileUrl: `/api/v1/admin/kyc/documents/${document.id}/file`,
  };
}

/**
 * Operators review tier-3 documents: the queue, each image (only here, never from /uploads),
 * and approve or reject with the reason audited and sent to the player.
 */
export async function adminKycRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admin'];

  const load = async (id: string) => {
    const [row] = await app.db
      .select(columns)
      .from(kycDocuments)
      .innerJoin(users, eq(users.id, kycDocuments.userId))
      .where(eq(kycDocuments.id, id));
    if (!row) throw notFound('Document not found');
    return row;
  };

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
    async (request) => {
      const { status } = request.query;
      const rows = await app.db
        .select(columns)
        .from(kycDocuments)
        .innerJoin(users, eq(users.id, kycDocuments.userId))
        .where(eq(kycDocuments.status, status))
        .orderBy(status === 'PENDING' ? asc(kycDocuments.createdAt) : desc(kycDocuments.reviewedAt))
        .limit(100);
      return { data: rows.map(toAdmin) };
    },
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
    async (request) => {
      const userId = request.params.id;
      const [user] = await app.db
        .select({ birth: users.verifiedBirthDate })
        .from(users)
        .where(eq(users.id, userId));
      if (!user) throw notFound('User not found');
      const [status, attempts, documents] = await Promise.all([
        getKycStatus(app.db, userId, app.clock.now()),
        app.db
          .select()
          .from(identityVerifications)
          .where(eq(identityVerifications.userId, userId))
          .orderBy(desc(identityVerifications.createdAt))
          .limit(50),
        app.db
          .select()
          .from(kycDocuments)
          .where(eq(kycDocuments.userId, userId))
          .orderBy(desc(kycDocuments.createdAt))
          .limit(20),
      ]);
      return {
        data: {
          tier: status.tier,
          verifiedName: status.verifiedName,
          verifiedBirthDate: user.birth,
          bankAccountMatches: status.bankAccountMatches,
          attempts: attempts.map((row) => ({
            idType: row.idType,
            idLastFour: row.idLastFour,
            status: row.status,
            reason: row.failureReason
              ? (FAILURE_MESSAGES[row.failureReason as keyof typeof FAILURE_MESSAGES] ??
                row.failureReason)
              : null,
            createdAt: row.createdAt.toISOString(),
            provider: row.provider,
            mode: row.mode,
          })),
          documents: documents.map((row) => ({
            id: row.id,
            documentType: row.documentType,
            status: row.status,
            reviewNote: row.reviewNote,
            createdAt: row.createdAt.toISOString(),
            reviewedAt: row.reviewedAt?.toISOString() ?? null,
          })),
        },
      };
    },
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
      const { document } = await load(request.params.id);
      const file = await app.fileStore.get(document.fileKey);
      if (!file) throw notFound('Document file not found');
      // As JSON with a data: URL: the console sends its token in a header, which an <img> cannot.
      reply.header('cache-control', 'no-store');
      return {
        data: {
          contentType: file.contentType,
          dataUrl: `data:${file.contentType};base64,${file.body.toString('base64')}`,
        },
      };
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
    async (request) => {
      const adminId = requireUser(request).id;
      const { decision } = request.body;
      const reason = request.body.reason?.trim() || null;
      const now = app.clock.now();
      await inTransaction(app.db, async (tx) => {
        const [reviewed] = await tx
          .update(kycDocuments)
          .set({
            status: decision === 'approve' ? 'APPROVED' : 'REJECTED',
            reviewedBy: adminId,
            reviewedAt: now,
            reviewNote: reason,
          })
          .where(and(eq(kycDocuments.id, request.params.id), eq(kycDocuments.status, 'PENDING')))
          .returning();
        if (!reviewed) {
          const [exists] = await tx
            .select({ id: kycDocuments.id })
            .from(kycDocuments)
            .where(eq(kycDocuments.id, request.params.id));
          throw exists ? conflict(ALREADY_REVIEWED) : notFound('Document not found');
        }
        const label = KYC_DOCUMENT_LABELS[reviewed.documentType];
        let tierBefore: number | null = null;
        if (decision === 'approve') {
          const [user] = await tx
            .select({ tier: users.kycTier })
            .from(users)
            .where(eq(users.id, reviewed.userId))
            .for('update');
          tierBefore = user?.tier ?? null;
          await tx.update(users).set({ kycTier: 3 }).where(eq(users.id, reviewed.userId));
          await notify(
            tx,
            reviewed.userId,
            'Documents approved',
            `Your ${label} was approved. Your wallet now has tier 3, the highest limits.`,
          );
        } else {
          await notify(
            tx,
            reviewed.userId,
            'Document not accepted',
            `Your ${label} was not accepted: ${reason}. You can upload another one.`,
          );
        }
        await recordAudit(tx, {
          adminId,
          action: decision === 'approve' ? 'kyc.document.approve' : 'kyc.document.reject',
          targetType: 'user',
          targetId: reviewed.userId,
          before: { documentId: reviewed.id, status: 'PENDING', tier: tierBefore },
          after: {
            documentId: reviewed.id,
            status: reviewed.status,
            reason,
            ...(decision === 'approve' ? { tier: 3 } : {}),
          },
        });
      });
      return { data: toAdmin(await load(request.params.id)) };
    },
  );
}
