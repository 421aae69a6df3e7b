import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../db/schema.ts';
import { encryptPayload, parseRsaPublicKey } from '../../providers/payments/transactpay.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createUser } from '../../test/factories.ts';
import { balanceOf, notificationTitles, walletEntryCount } from '../../test/fake-money.ts';
import {
  decryptPkcs1Chunks,
  type FakeTransactPay,
  startFakeTransactPay,
} from '../../test/fake-transactpay.ts';
import { checkLedger } from '../wallet/ledger-check.ts';

/** The TransactPay adapter against a local server that speaks TransactPay's documented API. */
const database = testDatabasePerFile();
let transactpay: FakeTransactPay;
beforeAll(async () => {
  transactpay = await startFakeTransactPay();
});
afterAll(() => transactpay.close());

const PUBLIC_URL = 'https://pluckers.test';
/** The app of the tests on the fake's own keys. */
const fileApp = testAppPerFile(database, () => ({ ...transactpay.env, PUBLIC_URL }));

/** A player on the file's app, or on an app of the test's own when it brings other keys. */
async function setup(env?: Record<string, string>) {
  const app = env ? await buildTestApp(database(), { ...env, PUBLIC_URL }) : fileApp();
  const user = await createUser(app.db, { fullname: 'Chiamaka Grace Eze' });
  const headers = await bearerFor(app, user);
  const topUp = async (amount: number) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/transactpay',
      headers,
      payload: { amount },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { paymentUrl: string; reference: string };
  };
  const webhook = (reference: string) => {
    const delivery = transactpay.webhook(reference);
    return app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook/transactpay',
      headers: delivery.headers,
      payload: delivery.body,
    });
  };
  const paymentRow = async (reference: string) => {
    const [row] = await app.db.select().from(payments).where(eq(payments.reference, reference));
    return row;
  };
  return { app, user, topUp, webhook, paymentRow };
}

describe('TransactPay adapter', () => {
  it('creates an order with the public key and an RSA-encrypted body, amounts in naira', async () => {
    const { user, topUp, paymentRow } = await setup();
    const { paymentUrl, reference } = await topUp(1234.5);
    expect(transactpay.rejected).toEqual([]);
    const order = transactpay.orders.get(reference);
    expect(order).toMatchObject({ amount: 1234.5, currency: 'NGN', status: 'Pending' });
    expect(order?.payload).toMatchObject({
      customer: { firstname: 'Chiamaka', lastname: 'Grace Eze', email: user.email, country: 'NG' },
      order: { reference, amount: 1234.5, currency: 'NGN' },
      payment: { RedirectUrl: 'https://pluckers.test/api/v1/payment/callback/transactpay' },
    });
    expect(paymentUrl).toBe(
      `https://payment-checkout.transactpay.test/pay/${encodeURIComponent(reference)}`,
    );
    expect(await paymentRow(reference)).toMatchObject({
      amount: 123_450n,
      status: 'PENDING',
      mode: 'live',
    });
  });

  it('accepts the merchant key in TransactPay’s base64 <RSAKeyValue> form too', async () => {
    const { topUp } = await setup({
      ...transactpay.env,
      TRANSACTPAY_ENCRYPTION_KEY: transactpay.encryptionKeyXml,
    });
    const { reference } = await topUp(500);
    expect(transactpay.rejected).toEqual([]);
    expect(transactpay.orders.get(reference)?.amount).toBe(500);
  });

  it('treats the unsigned webhook as a hint: credits only once the server-side verify says Successful', async () => {
    const { app, user, topUp, webhook, paymentRow } = await setup();
    const { reference } = await topUp(2000);

    // A webhook while the order is still pending (or a forged one) credits nothing.
    const early = await webhook(reference);
    expect(early.statusCode).toBe(200);
    expect((await paymentRow(reference))?.status).toBe('PENDING');
    expect(await balanceOf(app.db, user.id)).toBe(0n);

    // Someone forges a "Successful" body: the server asks TransactPay, which says Pending.
    const forged = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook/transactpay',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        data: { reference, status: 'Successful', amount: 2000, currency: 'NGN' },
      }),
    });
    expect(forged.statusCode).toBe(200);
    expect(await balanceOf(app.db, user.id)).toBe(0n);

    transactpay.markPaid(reference);
    await Promise.all(Array.from({ length: 5 }, () => webhook(reference)));
    expect((await paymentRow(reference))?.status).toBe('SUCCESS');
    expect(await balanceOf(app.db, user.id)).toBe(200_000n);
    expect(await walletEntryCount(app.db, user.id)).toBe(1);
    expect(await notificationTitles(app.db, user.id)).toEqual(['Top-up successful']);
    expect(transactpay.rejected).toEqual([]);
    expect((await checkLedger(app.db, app.paymentProviders)).ok).toBe(true);
  });

  it('credits nothing when TransactPay verifies another amount or currency', async () => {
    const { app, user, topUp, webhook, paymentRow } = await setup();
    const short = await topUp(1000);
    transactpay.markPaid(short.reference, { amount: 999.99 });
    await webhook(short.reference);
    expect(await paymentRow(short.reference)).toMatchObject({
      status: 'FAILED',
      failureReason: 'The amount paid did not match the top-up; contact support',
    });

    const dollars = await topUp(1000);
    transactpay.markPaid(dollars.reference, { currency: 'USD' });
    await webhook(dollars.reference);
    expect((await paymentRow(dollars.reference))?.status).toBe('FAILED');

    // Re-deliveries change nothing: the verified answer still does not match.
    await webhook(short.reference);
    await webhook(dollars.reference);
    expect(await balanceOf(app.db, user.id)).toBe(0n);
    expect(await notificationTitles(app.db, user.id)).toEqual(['Top-up failed', 'Top-up failed']);
  });

  it('fails a declined order with TransactPay’s message on the callback', async () => {
    const { app, user, topUp, paymentRow } = await setup();
    const { reference } = await topUp(300);
    transactpay.markFailed(reference);
    const response = await app.inject({
      url: `/api/v1/payment/callback/transactpay?reference=${reference}`,
    });
    expect(String(response.headers.location)).toBe(
      `/PaymentStatus?status=failed&message=${encodeURIComponent('Card declined by issuer')}&reference=${reference}`,
    );
    expect((await paymentRow(reference))?.status).toBe('FAILED');
    expect(await balanceOf(app.db, user.id)).toBe(0n);
  });

  it('ignores webhooks that name no order and refuses unreadable ones', async () => {
    const { app } = await setup();
    const none = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook/transactpay',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ event: 'ping' }),
    });
    expect(none.json()).toEqual({ message: 'Ignored' });
    const garbage = await app.inject({
      method: 'POST',
      url: '/api/v1/payment/webhook/transactpay',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(garbage.statusCode).toBe(400);
  });
});

describe('TransactPay encryption', () => {
  it('encrypts long payloads in key-sized PKCS#1 v1.5 chunks the private key opens', () => {
    const key = parseRsaPublicKey(transactpay.encryptionKeyPem);
    const payload = {
      note: 'ṅ'.repeat(400),
      nested: { list: Array.from({ length: 50 }, (_, i) => i) },
    };
    const encrypted = Buffer.from(encryptPayload(key, payload), 'base64');
    // 2048-bit key: 256-byte blocks each carrying at most 245 bytes of JSON.
    expect(encrypted.length % 256).toBe(0);
    expect(encrypted.length / 256).toBe(
      Math.ceil(Buffer.byteLength(JSON.stringify(payload)) / 245),
    );
    expect(() => parseRsaPublicKey('not a key')).toThrow(/neither a PEM nor an <RSAKeyValue>/);
  });

  it('round-trips through the fake’s decryption', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const pair = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const payload = { hello: 'Pluckers', amount: 1234.5, long: 'x'.repeat(300) };
    const encrypted = encryptPayload(
      parseRsaPublicKey(pair.publicKey.export({ type: 'spki', format: 'pem' }).toString()),
      payload,
    );
    const plain = decryptPkcs1Chunks(pair.privateKey, Buffer.from(encrypted, 'base64'));
    expect(JSON.parse(plain.toString('utf8'))).toEqual(payload);
  });
});
