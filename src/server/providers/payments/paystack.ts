import { createHmac, timingSafeEqual } from 'node:crypto';
import { providerRequest } from './http.ts';
import {
  type CheckoutRequest,
  type IncomingTransfer,
  InvalidSignatureError,
  type PaymentProvider,
  ProviderError,
  type TransferRequest,
  type TransferResult,
  type VerifiedPayment,
  type VirtualAccountProvider,
} from './types.ts';

interface PaystackEnvelope<T> {
  status: boolean;
  message: string;
  data: T;
}

/** A transaction as Paystack's verify and list answers carry it. */
interface PaystackTransaction {
  id: number;
  status: string;
  reference: string;
  amount: number;
  currency: string;
  channel?: string;
  gateway_response?: string;
  /** For `dedicated_nuban`: who sent the transfer and to which account number. */
  authorization?: {
    sender_name?: string | null;
    sender_bank?: string | null;
    receiver_bank_account_number?: string | null;
  } | null;
}

/** Paystack's channel for money sent to a dedicated virtual account. */
const DEDICATED_NUBAN = 'dedicated_nuban';

/** A completed transfer into a dedicated account, or null for anything else. */
function incomingTransfer(transaction: PaystackTransaction | undefined): IncomingTransfer | null {
  const accountNumber = transaction?.authorization?.receiver_bank_account_number;
  if (
    transaction?.status !== 'success' ||
    transaction.channel !== DEDICATED_NUBAN ||
    !accountNumber ||
    !Number.isInteger(transaction.amount) ||
    transaction.amount <= 0
  )
    return null;
  return {
    reference: transaction.reference,
    transactionId: String(transaction.id),
    accountNumber,
    accountReference: null,
    amountKobo: BigInt(transaction.amount),
    currency: transaction.currency,
    senderName: transaction.authorization?.sender_name || null,
    senderBank: transaction.authorization?.sender_bank || null,
  };
}

/** Paystack's test mode issues dedicated accounts only at its test bank; live ones at Wema Bank. */
const dedicatedAccountBank = (secretKey: string) =>
  secretKey.startsWith('sk_test_') ? 'test-bank' : 'wema-bank';

const LIST_PAGE_SIZE = 100;
/** Pages read per reconciliation at most: a burst beyond it is read on the next run. */
const LIST_MAX_PAGES = 20;

/**
 * Paystack's documented API: Bearer secret key, amounts in kobo, initialize → authorization_url,
 * verify by reference, webhooks signed with HMAC-SHA512 of the raw body (x-paystack-signature).
 * Dedicated virtual accounts: a customer is created (POST /customer), then given an account
 * number (POST /dedicated_account); money sent to it is a `charge.success` of channel
 * `dedicated_nuban`, verified and listed like any transaction.
 */
export function createPaystackProvider(options: {
  secretKey: string;
  baseUrl: string;
}): PaymentProvider {
  const headers = { Authorization: `Bearer ${options.secretKey}` };
  const url = (path: string) => `${options.baseUrl.replace(/\/$/, '')}${path}`;

  const virtualAccounts: VirtualAccountProvider = {
    requiresBvn: false,

    async create(request) {
      const [firstName = request.fullname, ...rest] = request.fullname.trim().split(/\s+/);
      const customer = await providerRequest<PaystackEnvelope<{ customer_code: string }>>(
        url('/customer'),
        {
          method: 'POST',
          headers,
          body: {
            email: request.email,
            first_name: firstName,
            last_name: rest.join(' ') || firstName,
            phone: request.phoneNumber || undefined,
            metadata: { pluckers_reference: request.reference },
          },
        },
      );
      const customerCode = customer.data?.customer_code;
      if (!customerCode)
        throw new ProviderError(customer.message || 'Paystack did not create the customer', {
          refused: true,
        });
      const account = await providerRequest<
        PaystackEnvelope<{
          id: number;
          account_name: string;
          account_number: string;
          bank: { name: string };
        }>
      >(url('/dedicated_account'), {
        method: 'POST',
        headers,
        body: { customer: customerCode, preferred_bank: dedicatedAccountBank(options.secretKey) },
      });
      const data = account.data;
      if (!data?.account_number || !data.account_name || !data.bank?.name)
        throw new ProviderError(account.message || 'Paystack did not assign an account number', {
          refused: true,
        });
      return {
        accountNumber: data.account_number,
        accountName: data.account_name,
        bankName: data.bank.name,
        providerCustomer: customerCode,
        providerReference: String(data.id),
      };
    },

    async verifyIncoming(reference) {
      const body = await providerRequest<PaystackEnvelope<PaystackTransaction>>(
        url(`/transaction/verify/${encodeURIComponent(reference)}`),
        { method: 'GET', headers },
      );
      const incoming = incomingTransfer(body.data);
      // Verify answers for the reference it was asked; anything else is not this transfer.
      return incoming?.reference === reference ? incoming : null;
    },

    async listIncoming(since, until) {
      const found: IncomingTransfer[] = [];
      for (let page = 1; page <= LIST_MAX_PAGES; page += 1) {
        const query = new URLSearchParams({
          status: 'success',
          from: since.toISOString(),
          to: until.toISOString(),
          perPage: String(LIST_PAGE_SIZE),
          page: String(page),
        });
        const body = await providerRequest<
          PaystackEnvelope<PaystackTransaction[]> & { meta?: { pageCount?: number } }
        >(url(`/transaction?${query}`), { method: 'GET', headers });
        for (const transaction of body.data ?? []) {
          const incoming = incomingTransfer(transaction);
          if (incoming) found.push(incoming);
        }
        if (page >= (body.meta?.pageCount ?? 1)) break;
      }
      // Paystack lists newest first; credit in the order the money arrived.
      return found.reverse();
    },
  };

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
        data?: { reference?: string; id?: number; transfer_code?: string; channel?: string };
      };
      const reference = event.data?.reference;
      if (typeof reference !== 'string' || !reference) return null;
      if (event.event === 'charge.success') {
        return {
          kind: event.data?.channel === DEDICATED_NUBAN ? 'bank_transfer' : 'charge',
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

    virtualAccounts,

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
