import {
  constants,
  createPrivateKey,
  generateKeyPairSync,
  type KeyObject,
  privateDecrypt,
  randomBytes,
} from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody, send, serveFake } from './fake-http.ts';

/**
 * A local stand-in for TransactPay's payment API on 127.0.0.1. Order creation takes the public
 * key in the `api-key` header and the order as `{ "data": base64 }`, encrypted in key-sized
 * PKCS#1 v1.5 chunks with the merchant RSA key; the fake holds the private half and decrypts.
 * Verification takes the secret key and answers `data.status` Successful | Failed | Pending with
 * the amount in naira. Webhooks are unsigned, as TransactPay documents none.
 */

export type TransactPayOrderStatus = 'Pending' | 'Successful' | 'Failed';

export interface FakeTransactPayOrder {
  reference: string;
  /** Naira, as TransactPay speaks. */
  amount: number;
  currency: string;
  status: TransactPayOrderStatus;
  /** Everything the merchant sent, decrypted. */
  payload: Record<string, unknown>;
}

export interface FakeTransactPay {
  url: string;
  publicKey: string;
  secretKey: string;
  /** The merchant encryption key: SPKI PEM of the RSA public key. */
  encryptionKeyPem: string;
  /** The same key as TransactPay hands it out: base64 of an <RSAKeyValue> XML document. */
  encryptionKeyXml: string;
  /** TRANSACTPAY_* variables that point the app at this server (PEM key). */
  env: Record<string, string>;
  orders: Map<string, FakeTransactPayOrder>;
  /** Requests the fake could not accept, with why (wrong key, undecryptable body...). */
  rejected: string[];
  markPaid(reference: string, overrides?: { amount?: number; currency?: string }): void;
  markFailed(reference: string): void;
  /** An (unsigned) webhook delivery about `reference`. */
  webhook(reference: string): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

/**
 * Decrypts RSA PKCS#1 v1.5 ciphertext made of key-sized blocks. Node 20 refuses
 * RSA_PKCS1_PADDING for private decryption, so each block is opened raw and the padding
 * (00 02, at least 8 non-zero random bytes, 00, message) is checked and removed here.
 */
export function decryptPkcs1Chunks(privateKey: KeyObject, ciphertext: Buffer): Buffer {
  const size = (privateKey.asymmetricKeyDetails?.modulusLength ?? 2048) / 8;
  if (ciphertext.length === 0 || ciphertext.length % size !== 0)
    throw new Error(`ciphertext of ${ciphertext.length} bytes is not whole ${size}-byte blocks`);
  const parts: Buffer[] = [];
  for (let offset = 0; offset < ciphertext.length; offset += size) {
    const block = privateDecrypt(
      { key: privateKey, padding: constants.RSA_NO_PADDING },
      ciphertext.subarray(offset, offset + size),
    );
    if (block[0] !== 0x00 || block[1] !== 0x02) throw new Error('not PKCS#1 v1.5 type 2 padding');
    const separator = block.indexOf(0x00, 2);
    if (separator < 10) throw new Error('PKCS#1 v1.5 padding string too short');
    parts.push(block.subarray(separator + 1));
  }
  return Buffer.concat(parts);
}

const fromBase64Url = (value: string) =>
  Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('base64');

export async function startFakeTransactPay(): Promise<FakeTransactPay> {
  const publicKey = `PUBK_TEST_${randomBytes(12).toString('hex')}`;
  const secretKey = `SECK_TEST_${randomBytes(12).toString('hex')}`;
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKey = createPrivateKey(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const encryptionKeyPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const jwk = pair.publicKey.export({ format: 'jwk' });
  const encryptionKeyXml = Buffer.from(
    `<RSAKeyValue><Modulus>${fromBase64Url(jwk.n ?? '')}</Modulus><Exponent>${fromBase64Url(jwk.e ?? '')}</Exponent></RSAKeyValue>`,
  ).toString('base64');

  const orders = new Map<string, FakeTransactPayOrder>();
  const rejected: string[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake-transactpay');
    const body = await readJsonBody(req);
    if (!body) {
      rejected.push(`${url.pathname}: body is not JSON`);
      return send(res, 400, { status: 'failed', message: 'Invalid request body' });
    }
    const apiKey = req.headers['api-key'];

    if (req.method === 'POST' && url.pathname === '/payment/order/create') {
      if (apiKey !== publicKey) {
        rejected.push(`create: api-key ${String(apiKey)} is not the public key`);
        return send(res, 401, { status: 'failed', message: 'Invalid API key' });
      }
      if (typeof body.data !== 'string') {
        rejected.push('create: no encrypted data field');
        return send(res, 400, { status: 'failed', message: 'data is required' });
      }
      let order: Record<string, unknown>;
      try {
        order = JSON.parse(
          decryptPkcs1Chunks(privateKey, Buffer.from(body.data, 'base64')).toString('utf8'),
        ) as Record<string, unknown>;
      } catch (error) {
        rejected.push(`create: could not decrypt: ${String(error)}`);
        return send(res, 400, { status: 'failed', message: 'Unable to decrypt payload' });
      }
      const details = (order.order ?? {}) as Record<string, unknown>;
      const customer = (order.customer ?? {}) as Record<string, unknown>;
      const reference = typeof details.reference === 'string' ? details.reference : '';
      const amount = Number(details.amount);
      if (!reference || !Number.isFinite(amount) || amount <= 0 || !customer.email) {
        rejected.push(`create: incomplete order ${JSON.stringify(order)}`);
        return send(res, 400, { status: 'failed', message: 'Invalid order details' });
      }
      if (orders.has(reference))
        return send(res, 400, { status: 'failed', message: 'Duplicate order reference' });
      orders.set(reference, {
        reference,
        amount,
        currency: typeof details.currency === 'string' ? details.currency : 'NGN',
        status: 'Pending',
        payload: order,
      });
      return send(res, 200, {
        status: 'success',
        statusCode: '00',
        message: 'Order created successfully',
        data: {
          order: { reference, amount, currency: details.currency ?? 'NGN', status: 'Pending' },
          customer,
          paymentDetail: {
            redirectUrl: `https://payment-checkout.transactpay.test/pay/${encodeURIComponent(reference)}`,
            recommendedAction: 'Redirect the customer to the checkout page',
          },
        },
      });
    }

    if (req.method === 'POST' && url.pathname === '/payment/order/verify') {
      if (apiKey !== secretKey) {
        rejected.push(`verify: api-key ${String(apiKey)} is not the secret key`);
        return send(res, 401, { status: 'failed', message: 'Invalid API key' });
      }
      const order = orders.get(String(body.reference ?? ''));
      if (!order) return send(res, 404, { status: 'failed', message: 'Order not found' });
      return send(res, 200, {
        status: 'success',
        statusCode: '00',
        message: 'Order verified',
        data: {
          reference: order.reference,
          amount: order.amount,
          currency: order.currency,
          status: order.status,
          statusMessage:
            order.status === 'Successful'
              ? 'Payment successful'
              : order.status === 'Failed'
                ? 'Card declined by issuer'
                : 'Awaiting payment',
        },
      });
    }

    return send(res, 404, { status: 'failed', message: 'Not found' });
  }

  const { server, url } = await serveFake(handle, (res, error) =>
    send(res, 500, { status: 'failed', message: String(error) }),
  );

  const order = (reference: string) => {
    const found = orders.get(reference);
    if (!found) throw new Error(`fake TransactPay: no order ${reference}`);
    return found;
  };

  return {
    url,
    publicKey,
    secretKey,
    encryptionKeyPem,
    encryptionKeyXml,
    env: {
      TRANSACTPAY_PUBLIC_KEY: publicKey,
      TRANSACTPAY_SECRET_KEY: secretKey,
      TRANSACTPAY_ENCRYPTION_KEY: encryptionKeyPem,
      TRANSACTPAY_BASE_URL: url,
    },
    orders,
    rejected,
    markPaid(reference, overrides = {}) {
      const found = order(reference);
      found.status = 'Successful';
      if (overrides.amount !== undefined) found.amount = overrides.amount;
      if (overrides.currency !== undefined) found.currency = overrides.currency;
    },
    markFailed(reference) {
      order(reference).status = 'Failed';
    },
    webhook(reference) {
      const found = order(reference);
      return {
        body: JSON.stringify({
          event: 'order.status',
          data: {
            reference: found.reference,
            status: found.status,
            amount: found.amount,
            currency: found.currency,
          },
        }),
        headers: { 'content-type': 'application/json' },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
