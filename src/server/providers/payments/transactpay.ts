import { constants, createHash, createPublicKey, type KeyObject, publicEncrypt } from 'node:crypto';
import { koboToNaira, nairaToKobo } from '../../../shared/money.ts';
import { providerRequest } from './http.ts';
import {
  type CheckoutRequest,
  type PaymentProvider,
  ProviderError,
  type TransferRequest,
  type TransferResult,
  type VerifiedPayment,
} from './types.ts';

export interface TransactPayOptions {
  publicKey: string;
  secretKey: string;
  /** The merchant RSA key: PEM, or TransactPay's base64 <RSAKeyValue> XML. */
  encryptionKey: string;
  baseUrl: string;
}

const toBase64Url = (base64: string) =>
  base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** Accepts a PEM public key or the base64-encoded XML form TransactPay hands out. */
export function parseRsaPublicKey(value: string): KeyObject {
  const text = value.includes('BEGIN') ? value : Buffer.from(value, 'base64').toString('utf8');
  if (text.includes('BEGIN')) return createPublicKey(text.replace(/\\n/g, '\n'));
  const modulus = /<Modulus>([^<]+)<\/Modulus>/.exec(text)?.[1];
  const exponent = /<Exponent>([^<]+)<\/Exponent>/.exec(text)?.[1];
  if (!modulus || !exponent)
    throw new Error('TRANSACTPAY_ENCRYPTION_KEY is neither a PEM nor an <RSAKeyValue> key');
  return createPublicKey({
    key: { kty: 'RSA', n: toBase64Url(modulus), e: toBase64Url(exponent) },
    format: 'jwk',
  });
}

/** RSA PKCS#1 v1.5 over the JSON in key-sized chunks, concatenated and base64-encoded. */
export function encryptPayload(key: KeyObject, payload: unknown): string {
  const keyBytes = (key.asymmetricKeyDetails?.modulusLength ?? 2048) / 8;
  const chunkSize = keyBytes - 11;
  const plain = Buffer.from(JSON.stringify(payload), 'utf8');
  const parts: Buffer[] = [];
  for (let offset = 0; offset < plain.length; offset += chunkSize) {
    parts.push(
      publicEncrypt(
        { key, padding: constants.RSA_PKCS1_PADDING },
        plain.subarray(offset, offset + chunkSize),
      ),
    );
  }
  return Buffer.concat(parts).toString('base64');
}

interface TransactPayEnvelope<T> {
  status: string;
  statusCode?: string;
  message?: string;
  data: T;
}

/**
 * TransactPay: order creation with the public key and an RSA-encrypted body; verification with
 * the secret key. Its webhook carries no documented signature, so a delivery is only a hint to
 * verify the order server-side. Amounts travel in naira.
 */
export function createTransactPayProvider(options: TransactPayOptions): PaymentProvider {
  const key = parseRsaPublicKey(options.encryptionKey);
  const url = (path: string) => `${options.baseUrl.replace(/\/$/, '')}${path}`;

  return {
    method: 'transactpay',
    mode: 'live',

    async initialise(request: CheckoutRequest) {
      const [firstname, ...rest] = request.fullname.trim().split(/\s+/);
      const body = await providerRequest<
        TransactPayEnvelope<{
          order?: { reference?: string };
          paymentDetail?: { redirectUrl?: string };
          redirectUrl?: string;
          paymentUrl?: string;
        }>
      >(url('/payment/order/create'), {
        method: 'POST',
        headers: { 'api-key': options.publicKey },
        body: {
          data: encryptPayload(key, {
            customer: {
              firstname: firstname ?? request.fullname,
              lastname: rest.join(' ') || firstname || request.fullname,
              mobile: request.phoneNumber,
              country: 'NG',
              email: request.email,
            },
            order: {
              amount: koboToNaira(request.amountKobo),
              reference: request.reference,
              description: 'Pluckers wallet top-up',
              currency: 'NGN',
            },
            payment: { RedirectUrl: request.callbackUrl },
          }),
        },
      });
      const paymentUrl =
        body.data?.paymentDetail?.redirectUrl ?? body.data?.redirectUrl ?? body.data?.paymentUrl;
      if (body.status !== 'success' || !paymentUrl)
        throw new ProviderError(body.message || 'TransactPay did not return a checkout link');
      return { paymentUrl };
    },

    async verify(reference: string): Promise<VerifiedPayment> {
      const body = await providerRequest<
        TransactPayEnvelope<{
          status?: string;
          amount?: number | string;
          currency?: string;
          statusMessage?: string;
        }>
      >(url('/payment/order/verify'), {
        method: 'POST',
        headers: { 'api-key': options.secretKey },
        body: { reference },
      });
      const status = body.data?.status?.toLowerCase();
      const amount = body.data?.amount === undefined ? null : Number(body.data.amount);
      return {
        status:
          status === 'successful'
            ? 'success'
            : status === 'failed' || status === 'cancelled' || status === 'expired'
              ? 'failed'
              : 'pending',
        amountKobo: amount === null || Number.isNaN(amount) ? null : nairaToKobo(amount),
        currency: body.data?.currency ?? null,
        message: body.data?.statusMessage ?? body.message,
      };
    },

    parseWebhook(rawBody) {
      const event = JSON.parse(rawBody.toString('utf8')) as {
        data?: { reference?: string; orderReference?: string };
        reference?: string;
      };
      const reference = event.data?.reference ?? event.data?.orderReference ?? event.reference;
      return typeof reference === 'string' && reference
        ? {
            kind: 'charge',
            reference,
            eventKey: `transactpay:${reference}:${createHash('sha256').update(rawBody).digest('hex')}`,
          }
        : null;
    },

    async resolveAccount() {
      throw new ProviderError(
        'TransactPay does not resolve bank accounts; configure Paystack for payouts',
        { refused: true },
      );
    },

    async transfer(_request: TransferRequest): Promise<TransferResult> {
      throw new ProviderError('TransactPay does not send payouts; configure Paystack for payouts', {
        refused: true,
      });
    },

    async verifyTransfer(): Promise<TransferResult> {
      throw new ProviderError('TransactPay does not send payouts; configure Paystack for payouts', {
        refused: true,
      });
    },
  };
}
