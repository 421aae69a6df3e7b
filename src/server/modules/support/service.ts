import { randomBytes } from 'node:crypto';
import { desc } from 'drizzle-orm';
import type { SupportTicket, SupportTicketBody } from '../../../shared/schemas/support.ts';
import type { Database } from '../../db/client.ts';
import { supportTickets } from '../../db/schema.ts';
import type { MailMessage } from '../../providers/mail.ts';

/** Unambiguous letters and digits (no 0/O, 1/I): read out over the phone to an operator. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** SUP-XXXX-XXXX: 40 bits, unique by constraint. */
export function newTicketReference(): string {
  const bytes = randomBytes(8);
  const chars = [...bytes].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
  return `SUP-${chars.slice(0, 4)}-${chars.slice(4, 8)}`;
}

export async function createTicket(
  db: Database,
  body: SupportTicketBody,
  userId: string | null,
): Promise<string> {
  const reference = newTicketReference();
  await db.insert(supportTickets).values({ ...body, reference, userId });
  return reference;
}

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** The sender's receipt: the reference to quote, and their own words back. */
export function ticketMail(body: SupportTicketBody, reference: string): MailMessage {
  const intro = `Hello ${body.name}, we have your message. Your ticket reference is ${reference}: quote it if you write again.`;
  return {
    to: body.email,
    subject: `Pluckers support: ticket ${reference}`,
    text: `${intro}\n\nSubject: ${body.subject}\nCategory: ${body.category}\n\n${body.message}\n\nThe Pluckers team`,
    html: `<p>${escapeHtml(intro)}</p><p><strong>Subject:</strong> ${escapeHtml(body.subject)}<br><strong>Category:</strong> ${escapeHtml(body.category)}</p><p style="white-space:pre-wrap">${escapeHtml(body.message)}</p><p>The Pluckers team</p>`,
  };
}

export async function latestTickets(db: Database, limit = 100): Promise<SupportTicket[]> {
  const rows = await db.select().from(supportTickets).orderBy(desc(supportTickets.id)).limit(limit);
  return rows.map((row) => ({
    id: String(row.id),
    reference: row.reference,
    userId: row.userId,
    name: row.name,
    email: row.email,
    category: row.category,
    subject: row.subject,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
  }));
}
