import { z } from 'zod';
import { timestampSchema } from './common.ts';
import { emailSchema } from './users.ts';

/** The support page's messages, shown by the form and answered by the server alike. */
export const SUPPORT_MESSAGES = {
  name: 'Enter your name',
  category: 'Select a category',
  subject: 'Enter a subject',
  message: 'Enter your message',
  tooLong: (what: string, max: number) => `${what} must be at most ${max} characters`,
} as const;

export const SUPPORT_MESSAGE_MAX = 2000;

const text = (empty: string, what: string, max: number) =>
  z
    .string({ error: empty })
    .max(max * 2, SUPPORT_MESSAGES.tooLong(what, max))
    .trim()
    .min(1, empty)
    .max(max, SUPPORT_MESSAGES.tooLong(what, max));

/** POST /support: what the support form sends (the fields in docs/product.md#screens). */
export const supportTicketBodySchema = z.object({
  name: text(SUPPORT_MESSAGES.name, 'Name', 100),
  email: emailSchema,
  category: text(SUPPORT_MESSAGES.category, 'Category', 60),
  subject: text(SUPPORT_MESSAGES.subject, 'Subject', 150),
  message: text(SUPPORT_MESSAGES.message, 'Message', SUPPORT_MESSAGE_MAX),
});
export type SupportTicketBody = z.infer<typeof supportTicketBodySchema>;

export const supportTicketCreatedSchema = z.object({ reference: z.string() });

/** GET /admin/support-tickets: the newest messages for operators. */
export const supportTicketSchema = supportTicketBodySchema.extend({
  id: z.string(),
  reference: z.string(),
  userId: z.string().nullable(),
  createdAt: timestampSchema,
});
export type SupportTicket = z.infer<typeof supportTicketSchema>;
