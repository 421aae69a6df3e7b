import { z } from 'zod';
import { KYC_DOCUMENT_TYPES, KYC_ID_TYPES } from '../kyc.ts';
import { nairaSchema, timestampSchema } from './common.ts';

/** Today in the calendar, as a person types their date of birth (YYYY-MM-DD). */
const calendarDate = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export const kycVerifyBodySchema = z.object({
  idType: z.enum(KYC_ID_TYPES, { error: 'Choose BVN or NIN' }),
  idNumber: z
    .string({ error: 'Enter your 11-digit BVN or NIN' })
    .trim()
    .max(11, 'Enter your 11-digit BVN or NIN')
    .regex(/^\d{11}$/, 'Enter your 11-digit BVN or NIN'),
  dateOfBirth: z
    .string({ error: 'Enter your date of birth' })
    .max(10, 'Enter your date of birth')
    .regex(calendarDate, 'Enter your date of birth'),
});
export type KycVerifyBody = z.infer<typeof kycVerifyBodySchema>;

export const kycTierCapsSchema = z.object({
  tier: z.number().int(),
  /** Naira; null: no cap. */
  balanceCap: nairaSchema.nullable(),
  dailyWithdrawalCap: nairaSchema.nullable(),
});
export type KycTierCaps = z.infer<typeof kycTierCapsSchema>;

export const kycAttemptSchema = z.object({
  idType: z.enum(KYC_ID_TYPES),
  idLastFour: z.string(),
  status: z.enum(['VERIFIED', 'REJECTED']),
  /** Why it was refused, as the player was told. */
  reason: z.string().nullable(),
  createdAt: timestampSchema,
});
export type KycAttempt = z.infer<typeof kycAttemptSchema>;

export const kycDocumentSchema = z.object({
  id: z.string(),
  documentType: z.enum(KYC_DOCUMENT_TYPES),
  status: z.enum(['PENDING', 'APPROVED', 'REJECTED']),
  reviewNote: z.string().nullable(),
  createdAt: timestampSchema,
  reviewedAt: timestampSchema.nullable(),
});
export type KycDocument = z.infer<typeof kycDocumentSchema>;

export const kycStatusSchema = z.object({
  tier: z.number().int(),
  /** Tier 1 needs a phone number on file; without one the identity check is not offered. */
  phoneOnFile: z.boolean(),
  verifiedName: z.string().nullable(),
  /** The caps of every tier, so the page can show what verifying unlocks. */
  tiers: z.array(kycTierCapsSchema),
  /** Withdrawn today (Africa/Lagos), counting every withdrawal not failed or rejected. */
  withdrawnToday: nairaSchema,
  /** After tier 2: false while the saved payout account is not in the verified name. */
  bankAccountMatches: z.boolean().nullable(),
  lastAttempt: kycAttemptSchema.nullable(),
  documents: z.array(kycDocumentSchema),
});
export type KycStatus = z.infer<typeof kycStatusSchema>;

export const kycVerifyResultSchema = z.object({
  status: z.enum(['VERIFIED', 'REJECTED']),
  kyc: kycStatusSchema,
});

/** The operator's queue of documents. */
export const adminKycDocumentSchema = kycDocumentSchema.extend({
  userId: z.string(),
  fullname: z.string(),
  email: z.string(),
  tier: z.number().int(),
  verifiedName: z.string().nullable(),
  verifiedBirthDate: z.string().nullable(),
  fileUrl: z.string(),
});
export type AdminKycDocument = z.infer<typeof adminKycDocumentSchema>;

export const KYC_REJECT_REASON = 'Give the player a reason of at least 3 characters';

/** A rejection needs a reason the player is told; an approval may carry a note. */
export const kycReviewBodySchema = z
  .object({
    decision: z.enum(['approve', 'reject'], { error: 'Approve or reject' }),
    reason: z
      .string({ error: 'Give a reason' })
      .trim()
      .max(300, 'Give a reason of at most 300 characters')
      .optional(),
  })
  .refine((body) => body.decision === 'approve' || (body.reason ?? '').length >= 3, {
    message: KYC_REJECT_REASON,
    path: ['reason'],
  });

export const kycDocumentQuerySchema = z.object({
  status: z.enum(['PENDING', 'APPROVED', 'REJECTED']).default('PENDING'),
});

/** The reason of a rejection alone, as the console's reason dialog checks it. */
export const kycRejectReasonSchema = z.object({
  reason: z
    .string({ error: KYC_REJECT_REASON })
    .trim()
    .min(3, KYC_REJECT_REASON)
    .max(300, 'Give a reason of at most 300 characters'),
});

/** A player's KYC as operators see it on the user page: every check, every document. */
export const adminUserKycSchema = z.object({
  tier: z.number().int(),
  verifiedName: z.string().nullable(),
  verifiedBirthDate: z.string().nullable(),
  bankAccountMatches: z.boolean().nullable(),
  attempts: z.array(
    kycAttemptSchema.extend({ provider: z.string(), mode: z.enum(['live', 'sandbox']) }),
  ),
  documents: z.array(kycDocumentSchema),
});
export type AdminUserKyc = z.infer<typeof adminUserKycSchema>;

/** A document's image for the console: a data: URL, since an <img> cannot send the token. */
export const kycDocumentFileSchema = z.object({ contentType: z.string(), dataUrl: z.string() });
export type KycDocumentFile = z.infer<typeof kycDocumentFileSchema>;
