import { createHash, timingSafeEqual } from 'node:crypto';
import { koboToNaira } from '../../../shared/money.ts';
import { providerRequest } from './http.ts';
import {
  type CheckoutRequest,
  type IncomingTransfer,
  InvalidSignatureError,
  type PaymentProvider,
  ProviderError,
  type TransferResult,
  type VerifiedPayment,
  type VerifyHint,
  VIRTUAL_ACCOUNT_REFERENCE_PREFIX,
  type VirtualAccountProvider,
} from './types.ts';

export interface FlutterwaveOptions {
  secretKey: string;
  /** The dashboard's "secret hash": Flutterwave sends it back verbatim in `verif-hash`. */
  webhookHash: string;
  baseUrl: string;
}

interface FlutterwaveEnvelope<T> {
  status: string;
  message?: string;
  data: T;
}

interface FlutterwaveTransaction {
  id?: number | string;
  tx_ref?: string;
  flw_ref?: string;
  status?: string;
  amount?: number | string;
  currency?: string;
  processor_response?: string;
  /** `bank_transfer` for money sent to a virtual account number. */
  payment_type?: string;
  /** A bank transfer's originator, as the sending bank reported them. */
  meta?: { originatorname?: string | null; bankname?: string | null } | null;
}

/**
 * A completed transfer into one of our virtual account numbers: Flutterwave repeats the tx_ref
 * the account was made under (ours, `va-…`) on every transfer into it; each transfer has a
 * flw_ref and an id of its own.
 */
function incomingTransfer(
  transaction: FlutterwaveTransaction | null | undefined,
): IncomingTransfer | null {
  const amountKobo = toKobo(transaction?.amount);
  if (
    transaction?.status?.toLowerCase() !== 'successful' ||
    transaction.payment_type !== 'bank_transfer' ||
    !transaction.tx_ref?.startsWith(VIRTUAL_ACCOUNT_REFERENCE_PREFIX) ||
    !transaction.flw_ref ||
    transaction.id === undefined ||
    amountKobo === null ||
    amountKobo <= 0n
  )
    return null;
  return {
    reference: transaction.flw_ref,
    transactionId: String(transaction.id),
    accountNumber: null,
    accountReference: transaction.tx_ref,
    amountKobo,
    currency: transaction.currency ?? '',
    senderName: transaction.meta?.originatorname || null,
    senderBank: transaction.meta?.bankname || null,
  };
}

const LIST_MAX_PAGES = 20;
/** Flutterwave's list filters by day (YYYY-MM-DD). */
const day = (at: Date) => at.toISOString().slice(0, 10);

/** Flutterwave speaks naira with decimals; anything but a whole number of kobo matches nothing. */
function toKobo(amount: number | string | undefined): bigint | null {
  const naira = typeof amount === 'string' ? Number(amount) : amount;
  if (typeof naira !== 'number' || !Number.isFinite(naira)) return null;
  const kobo = naira * 100;
  const whole = Math.round(kobo);
  if (Math.abs(kobo - whole) > 1e-6 || !Number.isSafeInteger(whole)) return null;
  return BigInt(whole);
}

function toVerified(transaction: FlutterwaveTransaction): VerifiedPayment {
  const status = transaction.status?.toLowerCase();
  return {
    // Anything short of a final answer ("pending", a checkout still open) can yet be paid.
    status: status === 'successful' ? 'success' : status === 'failed' ? 'failed' : 'pending',
    amountKobo: toKobo(transaction.amount),
    currency: transaction.currency ?? null,
    message: transaction.processor_response,
  };
}

/** Flutterwave's refusal for a transaction id or reference it has never seen. */
const isNotFound = (error: unknown) =>
  error instanceof ProviderError && error.refused && /no transaction/i.test(error.message);

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Flutterwave Standard (v3): Bearer secret key; POST /v3/payments gives a hosted checkout link;
 * a payment is verified by Flutterwave's transaction id (or, without one, by our tx_ref);
 * webhooks carry the dashboard's secret hash in `verif-hash` and are only a reason to verify.
 * Amounts travel in naira. Payouts stay with Paystack.
 */
export function createFlutterwaveProvider(options: FlutterwaveOptions): PaymentProvider {
  const headers = { Authorization: `Bearer ${options.secretKey}` };
  const url = (path: string) => `${options.baseUrl.replace(/\/$/, '')}${path}`;
  const expectedHash = digest(options.webhookHash);

  const fetchTransaction = (path: string) =>
    providerRequest<FlutterwaveEnvelope<FlutterwaveTransaction | null>>(url(path), {
      method: 'GET',
      headers,
    });

  /** By Flutterwave's id; null when it does not know the id or it belongs to another payment. */
  async function verifyById(reference: string, id: string): Promise<VerifiedPayment | null> {
    // Ids come from a browser's redirect too: only digits may reach the URL path.
    if (!/^\d{1,20}$/.test(id)) return null;
    try {
      const body = await fetchTransaction(`/v3/transactions/${id}/verify`);
      return body.data?.tx_ref === reference ? toVerified(body.data) : null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async function verifyByReference(reference: string): Promise<VerifiedPayment> {
    try {
      const body = await fetchTransaction(
        `/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(reference)}`,
      );
      if (body.data?.tx_ref !== reference)
        throw new ProviderError(`Flutterwave answered about another reference than ${reference}`);
      return toVerified(body.data);
    } catch (error) {
      // No attempt on the checkout yet (the customer left it, or has not paid): it can still be.
      if (isNotFound(error))
        return {
          status: 'pending',
          amountKobo: null,
          currency: null,
          message: 'The payment was not completed',
        };
      throw error;
    }
  }

  const virtualAccounts: VirtualAccountProvider = {
    // A static (permanent) account number is made only for a customer's BVN.
    requiresBvn: true,

    async create(request) {
      const [firstname = request.fullname, ...rest] = request.fullname.trim().split(/\s+/);
      const narration = `Pluckers ${request.fullname}`.slice(0, 60);
      const body = await providerRequest<
        FlutterwaveEnvelope<{
          order_ref?: string;
          account_number?: string;
          bank_name?: string;
        } | null>
      >(url('/v3/virtual-account-numbers'), {
        method: 'POST',
        headers,
        body: {
          email: request.email,
          is_permanent: true,
          bvn: request.bvn ?? undefined,
          tx_ref: request.reference,
          phonenumber: request.phoneNumber || undefined,
          firstname,
          lastname: rest.join(' ') || firstname,
          narration,
        },
      });
      const data = body.data;
      if (body.status !== 'success' || !data?.account_number || !data.bank_name)
        throw new ProviderError(body.message || 'Flutterwave did not make the account number', {
          refused: true,
        });
      return {
        accountNumber: data.account_number,
        // Flutterwave names the account by the narration it was made with.
        accountName: narration,
        bankName: data.bank_name,
        providerCustomer: null,
        providerReference: request.reference,
      };
    },

    async verifyIncoming(reference, hint) {
      const id = hint?.transactionId;
      if (!id || !/^\d{1,20}$/.test(id)) return null;
      try {
        const body = await fetchTransaction(`/v3/transactions/${id}/verify`);
        const incoming = incomingTransfer(body.data);
        return incoming?.reference === reference ? incoming : null;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async listIncoming(since, until) {
      const found: IncomingTransfer[] = [];
      for (let page = 1; page <= LIST_MAX_PAGES; page += 1) {
        const query = new URLSearchParams({
          from: day(since),
          to: day(until),
          status: 'successful',
          page: String(page),
        });
        const body = await providerRequest<
          FlutterwaveEnvelope<FlutterwaveTransaction[] | null> & {
            meta?: { page_info?: { total_pages?: number } };
          }
        >(url(`/v3/transactions?${query}`), { method: 'GET', headers });
        for (const transaction of body.data ?? []) {
          const incoming = incomingTransfer(transaction);
          if (incoming) found.push(incoming);
        }
        if (page >= (body.meta?.page_info?.total_pages ?? 1)) break;
      }
      return found.reverse();
    },
  };

  const noPayouts = () =>
    new ProviderError('Flutterwave does not send payouts here; configure Paystack for payouts', {
      refused: true,
    });

  return {
    method: 'flutterwave',
    mode: 'live',

    async initialise(request: CheckoutRequest) {
      const body = await providerRequest<FlutterwaveEnvelope<{ link?: string } | null>>(
        url('/v3/payments'),
        {
          method: 'POST',
          headers,
          body: {
            tx_ref: request.reference,
            amount: koboToNaira(request.amountKobo),
            currency: 'NGN',
            redirect_url: request.callbackUrl,
            customer: {
              email: request.email,
              name: request.fullname,
              phonenumber: request.phoneNumber,
            },
            customizations: { title: 'Pluckers wallet top-up' },
          },
        },
      );
      const link = body.data?.link;
      if (body.status !== 'success' || !link)
        throw new ProviderError(body.message || 'Flutterwave did not return a checkout link');
      return { paymentUrl: link };
    },

    async verify(reference: string, hint?: VerifyHint): Promise<VerifiedPayment> {
      const byId = hint?.transactionId ? await verifyById(reference, hint.transactionId) : null;
      return byId ?? verifyByReference(reference);
    },

    parseWebhook(rawBody, requestHeaders) {
      const given = requestHeaders['verif-hash'];
      // Hashed first so that the comparison takes the same time whatever the length given.
      if (typeof given !== 'string' || !timingSafeEqual(digest(given), expectedHash))
        throw new InvalidSignatureError('bad Flutterwave verif-hash');
      const event = JSON.parse(rawBody.toString('utf8')) as {
        event?: string;
        data?: {
          id?: number | string;
          tx_ref?: string;
          flw_ref?: string;
          status?: string;
          payment_type?: string;
        };
      };
      const reference = event.data?.tx_ref;
      if (event.event !== 'charge.completed' || typeof reference !== 'string' || !reference)
        return null;
      const id = event.data?.id;
      const transactionId =
        typeof id === 'number' || typeof id === 'string' ? String(id) : undefined;
      // Money sent to a player's account number: kept under the transfer's own flw_ref.
      if (reference.startsWith(VIRTUAL_ACCOUNT_REFERENCE_PREFIX)) {
        const flwRef = event.data?.flw_ref;
        if (event.data?.payment_type !== 'bank_transfer' || !flwRef || !transactionId) return null;
        return {
          kind: 'bank_transfer',
          reference: flwRef,
          transactionId,
          eventKey: `flutterwave:${event.event}:${transactionId}:${event.data?.status ?? ''}`,
        };
      }
      return {
        kind: 'charge',
        reference,
        transactionId,
        // One transaction is delivered again on retries; another attempt on the same checkout
        // (a second card) is a new transaction id, and a new status a new event.
        eventKey: `flutterwave:${event.event}:${transactionId ?? createHash('sha256').update(rawBody).digest('hex')}:${event.data?.status ?? ''}`,
      };
    },

    async refund(reference: string, amountKobo: bigint, note: string, hint?: VerifyHint) {
      // Flutterwave refunds by its transaction id: the successful attempt on our tx_ref, or the
      // bank transfer (kept under its flw_ref) by the id it came with.
      const transactionId = hint?.transactionId;
      const body =
        transactionId && /^\d{1,20}$/.test(transactionId)
          ? await fetchTransaction(`/v3/transactions/${transactionId}/verify`)
          : await fetchTransaction(
              `/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(reference)}`,
            );
      const paid = body.data;
      const isIt = paid?.tx_ref === reference || paid?.flw_ref === reference;
      if (!isIt || paid?.status?.toLowerCase() !== 'successful')
        throw new ProviderError(`Flutterwave has no successful payment ${reference} to refund`, {
          refused: true,
        });
      const refunded = await providerRequest<FlutterwaveEnvelope<unknown>>(
        url(`/v3/transactions/${encodeURIComponent(String(paid.id))}/refund`),
        {
          method: 'POST',
          headers,
          body: { amount: koboToNaira(amountKobo), comments: note },
        },
      );
      if (refunded.status !== 'success')
        throw new ProviderError(refunded.message || 'Flutterwave did not accept the refund', {
          refused: true,
        });
    },

    virtualAccounts,

    async resolveAccount() {
      throw noPayouts();
    },

    async transfer(): Promise<TransferResult> {
      throw noPayouts();
    },

    async verifyTransfer(): Promise<TransferResult> {
      throw noPayouts();
    },
  };
}
