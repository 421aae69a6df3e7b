import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportTickets } from '../../db/schema.ts';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser, uniqueSuffix } from '../../test/factories.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';

const database = testDatabasePerFile();
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp?.close();
});
/** One app for the file, sending mail to its SMTP server. */
const fileApp = testAppPerFile(database, () => ({ SMTP_URL: smtp.url }));

const ticket = (email: string) => ({
  name: 'Ada Plucker',
  email,
  category: 'Withdrawals',
  subject: 'Where is my money?',
  message: 'I withdrew ₦5,000 yesterday.\nIt has not arrived <yet>.',
});

describe('POST /api/v1/support', () => {
  it('stores the message for operators and e-mails the sender its reference', async () => {
    const app = fileApp();
    const email = `support-${uniqueSuffix()}@example.test`;
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/support',
      payload: ticket(` ${email.toUpperCase()} `),
    });
    expect(response.statusCode, response.body).toBe(201);
    const { reference } = response.json().data as { reference: string };
    expect(reference).toMatch(/^SUP-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(response.json().message).toBe(
      `Ticket ${reference}: we have e-mailed you the reference.`,
    );

    const [stored] = await app.db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.reference, reference));
    expect(stored).toMatchObject({ ...ticket(email), userId: null });

    const mail = await smtp.waitForMail(email);
    expect(mail.subject).toBe(`Pluckers support: ticket ${reference}`);
    expect(mail.text).toContain(reference);
    expect(mail.html).toContain('&lt;yet&gt;');
    expect(mail.html).not.toContain('<yet>');

    // Operators read it in the console's API; players cannot.
    const admin = await createUser(app.db, { role: 'admin' });
    const list = await app.inject({
      url: '/api/v1/admin/support-tickets',
      headers: await bearerFor(app, admin),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().data[0]).toMatchObject({ reference, email, subject: 'Where is my money?' });
    const player = await createUser(app.db);
    const refused = await app.inject({
      url: '/api/v1/admin/support-tickets',
      headers: await bearerFor(app, player),
    });
    expect(refused.statusCode).toBe(403);
  });

  it("refuses an incomplete message with the form's words and stores nothing", async () => {
    const app = fileApp();
    const email = `support-${uniqueSuffix()}@example.test`;
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/support',
      payload: { ...ticket(email), subject: '   ' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Enter a subject');
    const tooLong = await app.inject({
      method: 'POST',
      url: '/api/v1/support',
      payload: { ...ticket(email), message: 'x'.repeat(2001) },
    });
    expect(tooLong.json().message).toBe('Message must be at most 2000 characters');
    const stored = await app.db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.email, email));
    expect(stored).toHaveLength(0);
  });
});
