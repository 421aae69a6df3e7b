import { and, asc, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { KYC_DOCUMENT_LABELS } from '../../../shared/kyc.ts';
import type {
  AdminKycDocument,
  AdminUserKyc,
  kycDocumentQuerySchema,
  kycReviewBodySchema,
} from '../../../shared/schemas/kyc.ts';
import type { Database } from '../../db/client.ts';
import { newestRowsOf } from '../../db/newest-rows.ts';
import { identityVerifications, kycDocuments, users } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { conflict, notFound } from '../../errors.ts';
import type { FileStore } from '../../providers/file-store.ts';
import { recordAudit } from '../audit/record.ts';
import { notify } from '../notifications/service.ts';
import { getKycStatus, toApiAttempt, toApiDocument } from './service.ts';

type DocumentStatus = z.output<typeof kycDocumentQuerySchema>['status'];
type ReviewBody = z.output<typeof kycReviewBodySchema>;

/** How many checks and documents of one player the console lists. */
const USER_ATTEMPTS = 50;
const USER_DOCUMENTS = 20;
const QUEUE_LENGTH = 100;

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

async function loadDocument(db: Database, id: string) {
  const [row] = await db
    .select(columns)
    .from(kycDocuments)
    .innerJoin(users, eq(users.id, kycDocuments.userId))
    .where(eq(kycDocuments.id, id));
  if (!row) throw notFound('Document not found');
  return row;
}

/** Documents of one status: pending ones first in, first out; reviewed ones newest first. */
export async function listDocuments(
  db: Database,
  status: DocumentStatus,
): Promise<AdminKycDocument[]> {
  const rows = await db
    .select(columns)
    .from(kycDocuments)
    .innerJoin(users, eq(users.id, kycDocuments.userId))
    .where(eq(kycDocuments.status, status))
    .orderBy(status === 'PENDING' ? asc(kycDocuments.createdAt) : desc(kycDocuments.reviewedAt))
    .limit(QUEUE_LENGTH);
  return rows.map(toAdmin);
}

/** A player's tier, verified identity, and every check and document. */
export async function userKyc(db: Database, userId: string, now: Date): Promise<AdminUserKyc> {
  const [user] = await db
    .select({ birth: users.verifiedBirthDate })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound('User not found');
  const [status, attempts, documents] = await Promise.all([
    getKycStatus(db, userId, now),
    newestRowsOf(
      db.select().from(identityVerifications).$dynamic(),
      identityVerifications,
      userId,
      USER_ATTEMPTS,
    ),
    newestRowsOf(db.select().from(kycDocuments).$dynamic(), kycDocuments, userId, USER_DOCUMENTS),
  ]);
  return {
    tier: status.tier,
    verifiedName: status.verifiedName,
    verifiedBirthDate: user.birth,
    bankAccountMatches: status.bankAccountMatches,
    attempts: attempts.map((row) => ({
      ...toApiAttempt(row),
      provider: row.provider,
      mode: row.mode,
    })),
    documents: documents.map(toApiDocument),
  };
}

/** A document's image, as a data: URL. */
export async function documentFile(db: Database, store: FileStore, id: string) {
  const { document } = await loadDocument(db, id);
  const file = await store.get(document.fileKey);
  if (!file) throw notFound('Document file not found');
  return {
    contentType: file.contentType,
    dataUrl: `data:${file.contentType};base64,${file.body.toString('base64')}`,
  };
}

/**
 * Approves (tier 3) or rejects a pending document, audited, and tells the player; the
 * document as reviewed.
 */
export async function reviewDocument(
  db: Database,
  adminId: string,
  documentId: string,
  body: ReviewBody,
  now: Date,
): Promise<AdminKycDocument> {
  const { decision } = body;
  const reason = body.reason?.trim() || null;
  await inTransaction(db, async (tx) => {
    const [reviewed] = await tx
      .update(kycDocuments)
      .set({
        status: decision === 'approve' ? 'APPROVED' : 'REJECTED',
        reviewedBy: adminId,
        reviewedAt: now,
        reviewNote: reason,
      })
      .where(and(eq(kycDocuments.id, documentId), eq(kycDocuments.status, 'PENDING')))
      .returning();
    if (!reviewed) {
      const [exists] = await tx
        .select({ id: kycDocuments.id })
        .from(kycDocuments)
        .where(eq(kycDocuments.id, documentId));
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
  return toAdmin(await loadDocument(db, documentId));
}
