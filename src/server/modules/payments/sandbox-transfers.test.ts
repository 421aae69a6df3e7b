import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { sandboxTransfers } from '../../db/schema.ts';
import {
  SANDBOX_SIGNATURE_HEADER,
  SANDBOX_TRANSFER_EVENT,
  signSandboxWebhook,
} from '../../providers/payments/sandbox.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createAdmin, createUser, testClock } from '../../test/factories.ts';
import {
  balanceOf,
  notificationTitles,
  reviewSandboxTopUpsOf,
  walletEntryCount,
} from '../../test/fake-money.ts';
import {
  BANK_TRANSFER_ACCOUNT as ACCOUNT,
  accountNumberFor,
  expectLedgerHolds,
  paymentOf,
} from '../../test/top-ups.ts';
import { reconcileBankTransfers } from './bank-transfers.ts';
import { paymentsContextOf } from './service.ts';

/**
 * The payments sandbox gives account numbers too, and its page makes "a transfer arrives" for
 * one: the transfer is recorded on the sandbox provider's side, then its signed webhook lands it
 * through the same path as a live provider's (verified, credited or held, notified, once).
 */
const database = testDatabasePerFile({ alone: true });
const PAGE = '/api/v1/payment/sandbox/transfer';
// A Wednesday, 10:00 in Lagos.
const START = new Date('2026-12-02T09:00:00Z');

/** One app for the file, its clock stopped at START (no test moves it). */
const fileApp = testAppPerFile(database, {}, { clock: testClock(START) });

async function setup() {
  const app = fileApp();
  const user = await createUser(app.db, { fullname: 'Adaeze Okafor' });
  onTestFinished(() => reviewSandboxTopUpsOf(app.db, user.id));
  const headers = await bearerFor(app, user);
  const accountNumber = await accountNumberFor(app, headers);
  return { app, user, headers, accountNumber };
}

/** The page's form, posted as a browser posts it. */
function send(
  app: FastifyInstance,
  form: { account: string; amount: string; senderName: string; senderBank: string },
) {
  return app.inject({
    method: 'POST',
    url: PAGE,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
}

/** The sandbox transfer's reference, from where the page sends the browser after the form. */
function referenceOf(location: unknown): string {
  const reference = new URL(String(location), 'http://x').searchParams.get('transfer');
  if (!reference) throw new Error(`no transfer in ${String(location)}`);
  return reference;
}

describe('a sandbox transfer arrives', () => {
  it('gives a sandbox account number, and the page credits a transfer once with its sender', async () => {
    const { app, user, headers, accountNumber } = await setup();
    expect((await app.inject({ url: ACCOUNT, headers })).json().data).toMatchObject({
      available: true,
      provider: 'paystack',
      mode: 'sandbox',
      account: {
        accountNumber: expect.stringMatching(/^\d{10}$/),
        accountName: 'PLUCKERS/ADAEZE OKAFOR',
        bankName: 'Pluckers Sandbox Bank',
      },
    });

    const page = await app.inject({ url: `${PAGE}?account=${accountNumber}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('SANDBOX: no real money moves');
    expect(page.body).toContain(`value="${accountNumber}"`);

    const sent = await send(app, {
      account: accountNumber,
      amount: '5000',
      senderName: 'CHIDI EZE',
      senderBank: 'Access Bank',
    });
    expect(sent.statusCode, sent.body).toBe(303);
    const reference = referenceOf(sent.headers.location);
    expect(await paymentOf(app, reference)).toMatchObject({
      userId: user.id,
      status: 'SUCCESS',
      channel: 'bank_transfer',
      mode: 'sandbox',
      method: 'paystack',
      amount: 500_000n,
      senderName: 'CHIDI EZE',
      senderBank: 'Access Bank',
    });
    expect(await balanceOf(app.db, user.id)).toBe(500_000n);
    expect(await notificationTitles(app.db, user.id)).toEqual(['₦5,000 received']);
    const result = await app.inject({ url: String(sent.headers.location) });
    expect(result.body).toContain(`₦5,000 arrived at ${accountNumber} and is in the player`);

    // The same transfer reported again, 20 times at once, changes nothing.
    const event = JSON.stringify({ event: SANDBOX_TRANSFER_EVENT, reference });
    const again = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.inject({
          method: 'POST',
          url: '/api/v1/payment/webhook/paystack',
          headers: {
            'content-type': 'application/json',
            [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(app.secrets.sandbox, event),
          },
          payload: event,
        }),
      ),
    );
    expect(again.every((answer) => answer.statusCode === 200)).toBe(true);
    const forged = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook/paystack',
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: 'ab'.repeat(64) },
      payload: event,
    });
    expect(forged.statusCode).toBe(401);
    expect(await balanceOf(app.db, user.id)).toBe(500_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(1);
    await expectLedgerHolds(app);
  });

  it('holds a transfer the rules refuse, and says so on the page', async () => {
    const { app, user, headers, accountNumber } = await setup();
    const limit = await app.inject({
      method: 'PUT',
      url: '/api/v1/responsible-play/limits',
      headers,
      payload: { kind: 'deposit', period: 'day', amount: 2_000 },
    });
    expect(limit.statusCode, limit.body).toBe(200);
    const sent = await send(app, {
      account: accountNumber,
      amount: '3000',
      senderName: 'NGOZI ABA',
      senderBank: 'Zenith Bank',
    });
    expect(sent.statusCode, sent.body).toBe(303);
    const reference = referenceOf(sent.headers.location);
    expect(await paymentOf(app, reference)).toMatchObject({ status: 'HELD' });
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    const result = await app.inject({ url: String(sent.headers.location) });
    expect(result.body).toContain(
      `₦3,000 arrived at ${accountNumber} and is on hold: it would have taken you past your daily deposit limit`,
    );
    await expectLedgerHolds(app);

    // The sandbox has no refund: an operator records the return made by hand.
    const operator = await bearerFor(app, await createAdmin(app.db));
    const returned = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/held-payments/${reference}/return`,
      headers: operator,
      payload: { note: 'Sent back to the sender by hand' },
    });
    expect(returned.statusCode, returned.body).toBe(200);
    expect((await app.inject({ url: String(sent.headers.location) })).body).toContain(
      `₦3,000 arrived at ${accountNumber}, was held (it would have taken you past your daily deposit limit of ₦2,000) and has been returned to the sender.`,
    );
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    await expectLedgerHolds(app);
  });

  it('refuses a form it cannot send, recording nothing', async () => {
    const { app, accountNumber } = await setup();
    const good = {
      account: accountNumber,
      amount: '1000',
      senderName: 'CHIDI EZE',
      senderBank: 'Access Bank',
    };
    const cases: [Partial<typeof good>, string][] = [
      [
        { account: '0000000000' },
        'No player has this account number in the sandbox: get one from the wallet page first.',
      ],
      [{ account: '12345' }, 'Enter the 10-digit account number'],
      [{ amount: '12.50' }, 'Enter the amount in whole naira, e.g. 5000'],
      [{ amount: '0' }, 'Enter an amount from ₦1 to ₦10,000,000'],
      [{ senderName: '  ' }, 'Enter the sender&#39;s name'],
      [{ senderBank: 'b'.repeat(101) }, 'The sender&#39;s bank is at most 100 characters'],
    ];
    for (const [change, message] of cases) {
      const refused = await send(app, { ...good, ...change });
      expect(refused.statusCode, JSON.stringify(change)).toBe(400);
      expect(refused.body).toContain(message);
    }
    const escaped = await send(app, { ...good, account: '0000000000', senderName: '<b>x</b>' });
    expect(escaped.body).not.toContain('<b>x</b>');
    const recorded = await app.db
      .select()
      .from(sandboxTransfers)
      .where(inArray(sandboxTransfers.accountNumber, [accountNumber, '0000000000']));
    expect(recorded).toEqual([]);
  });

  it('reconciliation lands a sandbox transfer whose webhook never came, once', async () => {
    const { app, user, accountNumber } = await setup();
    const reference = `SBX-TRF-MISSED-${randomUUID().slice(0, 8)}`;
    await app.db.insert(sandboxTransfers).values({
      reference,
      method: 'paystack',
      accountNumber,
      amount: 120_000n,
      senderName: 'BOLA ADE',
      senderBank: 'GTBank',
      createdAt: new Date(START.getTime() - 60_000),
    });
    const ctx = paymentsContextOf(app, 'http://localhost:3999');
    expect(await reconcileBankTransfers(ctx)).toBe(1);
    expect(await reconcileBankTransfers(ctx)).toBe(0);
    expect(await paymentOf(app, reference)).toMatchObject({ status: 'SUCCESS', userId: user.id });
    expect(await balanceOf(app.db, user.id)).toBe(120_000n);
    await expectLedgerHolds(app);
  });

  it('is not there when the server runs no payments sandbox', async () => {
    const live = await buildTestApp(database(), { PAYMENTS_SANDBOX: 'false' });
    expect((await live.inject({ url: PAGE })).statusCode).toBe(404);
    const posted = await send(live, {
      account: '0123456789',
      amount: '1000',
      senderName: 'CHIDI EZE',
      senderBank: 'Access Bank',
    });
    expect(posted.statusCode).toBe(404);
  });
});
