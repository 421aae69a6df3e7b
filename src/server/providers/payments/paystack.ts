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
        // Paystack reports a checkout nobody has paid yet as "abandoned" (also "ongoing",
        // "pending", "processing", "queued"): the customer can still pay it, so it stays pending.
        status:
          status === 'success'
            ? 'success'
            : status === 'failed' || status === 'reversed'
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
      // Buffer.from(hex) stops at the first non-hex character, so insist on exactly 128 digits.
      const given = Buffer.from(
        typeof signature === 'string' && /^[0-9a-f]{128}$/i.test(signature) ? signature : '',
        'hex',
      );
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new InvalidSignatureError('bad Paystack signature');
      const event = JSON.parse(rawBody.toString('utf8')) as {
        event?: string;
        data?: { reference?: string; id?: number; transfer_code?: string };
      };
      const reference = event.data?.reference;
      if (typeof reference !== 'string' || !reference) return null;
      if (event.event === 'charge.success') {
        return {
          kind: 'charge',
          reference,
          eventKey: `paystack:${event.event}:${event.data?.id ?? reference}`,
        };
      }
      if (
        event.event === 'transfer.success' ||
        event.event === 'transfer.failed' ||
        event.event === 'transfer.reversed'
      ) {
        return { kind: 'transfer', reference, eventKey: `paystack:${event.event}:${reference}` };
      }
      return null;
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
      const recipientCode = recipient.data?.recipient_code;
      // No transfer has been asked for yet, so this is a refusal: nothing can have been sent.
      if (!recipientCode)
        throw new ProviderError(recipient.message || 'Paystack did not create the recipient', {
          refused: true,
        });
      const transfer = await providerRequest<
        PaystackEnvelope<{ status: string; transfer_code: string }>
      >(url('/transfer'), {
        method: 'POST',
        headers,
        body: {
          source: 'balance',
          amount: request.amountKobo.toString(),
          recipient: recipientCode,
          reference: request.reference,
          reason: request.reason,
        },
      });
      return transferResult(transfer);
    },

    async refund(reference: string, amountKobo: bigint, note: string) {
      // Paystack queues the refund and finishes it in its own time (refund.* webhooks).
      const body = await providerRequest<PaystackEnvelope<{ status?: string } | null>>(
        url('/refund'),
        {
          method: 'POST',
          headers,
          body: {
            transaction: reference,
            amount: amountKobo.toString(),
            merchant_note: note,
            customer_note: note,
          },
        },
      );
      if (!body.status)
        throw new ProviderError(body.message || 'Paystack did not accept the refund', {
          refused: true,
        });
    },

    async verifyTransfer(reference: string): Promise<TransferResult> {
      try {
        return transferResult(
          await providerRequest<PaystackEnvelope<{ status: string; transfer_code: string }>>(
            url(`/transfer/verify/${encodeURIComponent(reference)}`),
            { method: 'GET', headers },
          ),
        );
      } catch (error) {
        // Paystack's answer for a reference it never received: `status: false`, "Transfer not found".
        if (
          error instanceof ProviderError &&
          error.refused &&
          /transfer not found/i.test(error.message)
        )
          return { status: 'unknown', providerReference: null, message: error.message };
        throw error;
      }
    },
  };
}

/** Paystack transfer statuses: success, failed, reversed; pending, otp, received... in between. */
function transferResult(
  body: PaystackEnvelope<{ status: string; transfer_code: string }>,
): TransferResult {
  const status = body.data?.status;
  return {
    status:
      status === 'success'
        ? 'success'
        : status === 'failed'
          ? 'failed'
          : status === 'reversed'
            ? 'reversed'
            : 'pending',
    providerReference: body.data?.transfer_code ?? null,
    message: body.message,
  };
}
