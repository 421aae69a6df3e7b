import type { SupportTicketBody } from '@shared/schemas/support.ts';
import { http } from '@web/lib/http.ts';

/** POST /support: stores the message for operators; the reference is e-mailed to the sender. */
export const sendSupportTicket = (body: SupportTicketBody) =>
  http
    .post<{ message: string; data: { reference: string } }>('/support', body)
    .then((result) => ({ message: result.message, reference: result.data.reference }));
