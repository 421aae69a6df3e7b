import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAudit, settings } from '../../db/schema.ts';
import { buildTestApp } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createAdmin, createUser } from '../../test/factories.ts';
import { type FakeFlutterwave, startFakeFlutterwave } from '../../test/fake-flutterwave.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';

/** The operator picks where players' account numbers for bank transfers are made. */
const database = testDatabasePerFile();
let paystack: FakePaystack;
let flutterwave: FakeFlutterwave;
beforeAll(async () => {
  [paystack, flutterwave] = await Promise.all([startFakePaystack(), startFakeFlutterwave()]);
});
afterAll(() => Promise.all([paystack.close(), flutterwave.close()]));

const ACCOUNT = '/api/v1/payment/bank-transfer/account';

describe('the bank-transfer provider in Settings', () => {
  it('comes from the provider the operator picks in Settings, audited', async () => {
    // A server that runs both providers; with one only, its accounts come from that one.
    const app = await buildTestApp(database(), { ...paystack.env, ...flutterwave.env });
    const headers = await bearerFor(app, await createUser(app.db));
    const admin = await createAdmin(app.db);
    const operator = await bearerFor(app, admin);
    const current = (await app.inject({ url: '/api/v1/admin/settings', headers: operator })).json()
      .data;
    expect(current.bankTransferProvider).toBe('paystack');
    const pick = (who: Record<string, string>, provider: string) =>
      app.inject({
        method: 'PUT',
        url: '/api/v1/admin/settings/bank-transfer-provider',
        headers: who,
        payload: { provider },
      });
    expect((await pick(operator, 'transactpay')).statusCode).toBe(400);
    expect((await pick(headers, 'flutterwave')).statusCode).toBe(403);
    try {
      const saved = await pick(operator, 'flutterwave');
      expect(saved.statusCode, saved.body).toBe(200);
      const after = await app.inject({ url: '/api/v1/admin/settings', headers: operator });
      expect(after.json().data.bankTransferProvider).toBe('flutterwave');
      expect((await app.inject({ url: ACCOUNT, headers })).json().data.provider).toBe(
        'flutterwave',
      );
      const [audit] = await app.db
        .select()
        .from(adminAudit)
        .where(and(eq(adminAudit.adminId, admin.id), eq(adminAudit.action, 'settings.update')));
      expect(audit?.before).toMatchObject({ bankTransferProvider: 'paystack' });
      expect(audit?.after).toMatchObject({ bankTransferProvider: 'flutterwave' });
    } finally {
      await app.db.update(settings).set({ bankTransferProvider: 'paystack' });
    }
  });
});
