import { createHmac, timingSafeEqual } from 'node:crypto';
import { providerRequest } from './http.ts';
import {
  type CheckoutRequest,
  InvalidSignatureError,
  type PaymentProvider,
  ProviderError,
  type TransferRequest,
  type TransferResult,
  type VerifiedPayment,
} from './types.ts';

interface PaystackEnvelope<T> {
  status: boolean;
  message: string;
  data: T;
}

/**
 * Paystack's documented API: Bearer secret key, amounts in kobo, initialize → authorization_url,
 * verify by reference, webhooks signed with HMAC-SHA512 of the raw body (x-paystack-signature).
 */
export function createPaystackProvider(options: {
  secretKey: string;
  baseUrl: string;
}): PaymentProvider {
  const headers = { Authorization: `Bearer ${options.secretKey}` };
  const url = (path: string) => `${options.baseUrl.replace(/\/$/, '')}${path}`;

  return {
    method: 'paystack',
    mode: 'live',

    async initialise(request: CheckoutRequest) {
      const body = await providerRequest<PaystackEnvelope<{ authorization_url: string }>>(
        url('/transaction/initialize'),
        {
          method: 'POST',
          headers,
          body: {
            email: request.email,
            amount: request.amountKobo.toString(),
            currency: 'NGN',
            reference: request.reference,
            callback_url: request.callbackUrl,
            channels: ['card', 'bank', 'ussd', 'bank_transfer'],
            metadata: { fullname: request.fullname, phone: request.phoneNumber },
          },
        },
      );
      if (!body.status || !body.data?.authorization_url)
        throw new ProviderError(body.message || 'Paystack did not return a checkout link');
      return { paymentUrl: body.data.authorization_url };
    },

    async verify(reference: string): Promise<VerifiedPayment> {
      const body = await providerRequest<
        PaystackEnvelope<{
          status: string;
          amount: number;
          currency: string;
          gateway_response?: string;
        }>
      >(url(`/transaction/verify/${encodeURIComponent(reference)}`), { method: 'GET', headers });
      const status = body.data?.status;
      return {
        status:
          status === 'success'
            ? 'success'
            : status === 'failed' || status === 'abandoned' || status === 'reversed'
              ? 'failed'
              : 'pending',
        amountKobo: typeof body.data?.amount === 'number' ? BigInt(body.data.amount) : null,
        currency: body.data?.currency ?? null,
        message: body.data?.gateway_response,
      };
    },

    parseWebhook(rawBody, requestHeaders) {
      const signature = requestHeaders['x-paystack-signature'];
      const expected = createHmac('sha512', options.secretKey).update(rawBody).digest();
      const given = Buffer.from(typeof signature === 'string' ? signature : '', 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new InvalidSignatureError('bad Paystack signature');
      const event = JSON.parse(rawBody.toString('utf8')) as {
        event?: string;
        data?: { reference?: string; id?: number };
      };
      if (event.event !== 'charge.success' || !event.data?.reference) return null;
      return {
        reference: event.data.reference,
        eventKey: `paystack:${event.event}:${event.data.id ?? event.data.reference}`,
      };
    },

    async resolveAccount(accountNumber, bankCode) {
      const body = await providerRequest<PaystackEnvelope<{ account_name: string }>>(
        url(
          `/bank/resolve?account_number=${encodeURIComponent(accountNumber)}&bank_code=${encodeURIComponent(bankCode)}`,
        ),
        { method: 'GET', headers },
      );
      if (!body.data?.account_name)
        throw new ProviderError(body.message || 'Could not resolve the account');
      return { accountName: body.data.account_name };
    },

    async transfer(request: TransferRequest): Promise<TransferResult> {
      const recipient = await providerRequest<PaystackEnvelope<{ recipient_code: string }>>(
        url('/transferrecipient'),
        {
          method: 'POST',
          headers,
          body: {
            type: 'nuban',
            name: request.accountName,
            account_number: request.accountNumber,
            bank_code: request.bankCode,
            currency: 'NGN',
          },
        },
      );
      const transfer = await providerRequest<
        PaystackEnvelope<{ status: string; transfer_code: string }>
      >(url('/transfer'), {
        method: 'POST',
        headers,
        body: {
          source: 'balance',
          amount: request.amountKobo.toString(),
          recipient: recipient.data.recipient_code,
          reference: request.reference,
          reason: request.reason,
        },
      });
      const status = transfer.data?.status;
      return {
        status:
          status === 'success'
            ? 'success'
            : status === 'failed' || status === 'reversed'
              ? 'failed'
              : 'pending',
        providerReference: transfer.data?.transfer_code ?? null,
        message: transfer.message,
      };
    },
  };
}
