import { z } from 'zod';
import { FAIRNESS_LOG_KINDS } from '../constants.ts';

export const fairnessLogRecordSchema = z.object({
  position: z.number().int(),
  kind: z.enum(FAIRNESS_LOG_KINDS),
  gameId: z.string().nullable(),
  /** The exact JSON text that was hashed. */
  body: z.string(),
  prevHash: z.string(),
  hash: z.string(),
  createdAt: z.string(),
});

export const FAIRNESS_LOG_PAGE_MAX = 1000;

export const fairnessLogQuerySchema = z.object({
  /** First position to return (1 is the first record). */
  from: z.coerce
    .number({ error: 'from must be a record position (1 or more)' })
    .int('from must be a record position (1 or more)')
    .min(1, 'from must be a record position (1 or more)')
    .max(Number.MAX_SAFE_INTEGER, 'from must be a record position (1 or more)')
    .default(1),
  limit: z.coerce
    .number({ error: `limit must be between 1 and ${FAIRNESS_LOG_PAGE_MAX}` })
    .int(`limit must be between 1 and ${FAIRNESS_LOG_PAGE_MAX}`)
    .min(1, `limit must be between 1 and ${FAIRNESS_LOG_PAGE_MAX}`)
    .max(FAIRNESS_LOG_PAGE_MAX, `limit must be between 1 and ${FAIRNESS_LOG_PAGE_MAX}`)
    .default(FAIRNESS_LOG_PAGE_MAX),
});

export const fairnessLogPageSchema = z.object({
  records: z.array(fairnessLogRecordSchema),
  /** The hash before the first record returned (64 zeros before record 1). */
  prevHash: z.string(),
  head: z.object({ position: z.number().int(), hash: z.string() }).nullable(),
  /** Position to ask for next, null at the head. */
  next: z.number().int().nullable(),
});
export type FairnessLogPage = z.infer<typeof fairnessLogPageSchema>;
