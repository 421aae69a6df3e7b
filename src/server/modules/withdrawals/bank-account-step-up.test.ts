import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bankByCode, bearerFor, createUser, validNuban } from '../../test/factories.ts';
import { testPasswordHash } from '../../test/passwords.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';

/** A stolen token cannot redirect the owner's withdrawals. */
const database = testDatabasePerFile();
const PASSWORD = 'Correct-Horse-Battery';
let smtp: TestSmtpServer;
let passwordHash: string;
beforeAll(async () => {
  [smtp, passwordHash] = await Promise.all([startSmtpServer(), testPasswordHash(PASSWORD)]);
});
afterAll(async () => {
  await smtp?.close();
});

// Sandbox payouts: the account name is the player's own, no provider needed.
async function setup(overrides: { passwordHash?: string | null } = { passwordHash: null }) {
  const app = await buildTestApp(database(), { SMTP_URL: smtp.url });
  const user = await createUser(app.db, { passwordHash: overrides.passwordHash ?? null });
  const headers = await bearerFor(app, user);
  const save = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/api/v1/bank-account', headers, payload });
  return { app, user, headers, save };
}

async function savedNumber(app: FastifyInstance, userId: string) {
  const [row] = await app.db
    .select({ number: users.bankAccountNumber })
    .from(users)
    .where(eq(users.id, userId));
  return row?.number ?? null;
}

describe('replacing the payout bank account', () => {
  it('the first account needs no password; replacing it does, and the owner is e-mailed each time', async () => {
    const { app, user, save } = await setup({ passwordHash });
    const bank = await bankByCode(app.db, '044');
    const first = validNuban('044');
    const added = await save({ bankID: bank.id, accountNumber: first });
    expect(added.statusCode, added.body).toBe(200);
    expect((await smtp.waitForMail(user.email)).subject).toBe(
      'A withdrawal bank account was added',
    );

    const other = await bankByCode(app.db, '058');
    const attackers = validNuban('058');
    const refused = await save({ bankID: other.id, accountNumber: attackers });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      message: 'Enter your current password',
      statusCode: 400,
      code: 'PROOF_REFUSED',
    });
    const wrong = await save({
      bankID: other.id,
      accountNumber: attackers,
      currentPassword: 'not-the-password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Your current password is incorrect');
    expect(await savedNumber(app, user.id)).toBe(first);

    // Saving the same account again replaces nothing.
    expect((await save({ bankID: bank.id, accountNumber: first })).statusCode).toBe(200);
    await smtp.waitForMail(user.email);

    const replaced = await save({
      bankID: other.id,
      accountNumber: attackers,
      currentPassword: PASSWORD,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await savedNumber(app, user.id)).toBe(attackers);
    const mail = await smtp.waitForMail(user.email);
    expect(mail.subject).toBe('Your withdrawal bank account was changed');
    expect(mail.text).toContain(attackers);
  });

  it('an account without a password replaces it with the code e-mailed to it', async () => {
    const { app, user, headers, save } = await setup();
    const bank = await bankByCode(app.db, '033');
    expect((await save({ bankID: bank.id, accountNumber: validNuban('033') })).statusCode).toBe(
      200,
    );
    await smtp.waitForMail(user.email);
    const replacement = validNuban('033');

    const noCode = await save({ bankID: bank.id, accountNumber: replacement });
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().message).toBe('Enter the 6-digit code we sent to your e-mail');

    const sent = await app.inject({ method: 'POST', url: '/api/v1/user/step-up-code', headers });
    expect(sent.statusCode).toBe(200);
    const { code } = await smtp.waitForMail(user.email);
    const replaced = await save({ bankID: bank.id, accountNumber: replacement, code });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await savedNumber(app, user.id)).toBe(replacement);
  });
});
