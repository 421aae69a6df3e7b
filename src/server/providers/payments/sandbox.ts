import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sandboxOrders, sandboxTransfers } from '../../db/schema.ts';
import {
  type CheckoutRequest,
  type IncomingTransfer,
  InvalidSignatureError,
  type PaymentMethod,
  type PaymentProvider,
  type VerifiedPayment,
  type VirtualAccountProvider,
} from './types.ts';

export const SANDBOX_SIGNATURE_HEADER = 'x-pluckers-sandbox-signature';

export function signSandboxWebhook(secret: Uint8Array, rawBody: Buffer | string): string {
  return createHmac('sha512', secret).update(rawBody).digest('hex');
}

/** The webhook event the sandbox's transfer page sends when a transfer "arrives". */
export const SANDBOX_TRANSFER_EVENT = 'transfer.received';

/** The bank the sandbox's account numbers are at: no real bank, so no real transfer reaches one. */
export const SANDBOX_BANK_NAME = 'Pluckers Sandbox Bank';

/**
 * A player's sandbox account number: ten digits drawn from their reference, so asking again gives
 * the same number (as a provider answers a customer with the account it already has).
 */
export function sandboxAccountNumber(method: PaymentMethod, reference: string): string {
  const digest = createHash('sha256').update(`${method}:${reference}`).digest();
  return String(digest.readBigUInt64BE() % 10_000_000_000n).padStart(10, '0');
}

const incomingOf = (row: typeof sandboxTransfers.$inferSelect): IncomingTransfer => ({
  reference: row.reference,
  transactionId: row.reference,
  accountNumber: row.accountNumber,
  accountReference: null,
  amountKobo: row.amount,
  currency: 'NGN',
  senderName: row.senderName,
  senderBank: row.senderBank,
});

/**
 * Account numbers in the sandbox, for the methods that give them live (Paystack, Flutterwave).
 * Money reaches them only from the sandbox's transfer page, which records the transfer in
 * sandbox_transfers (the provider's side) and then sends the signed webhook: the transfer is
 * verified, credited or held exactly as a live one. Flutterwave's needs a BVN, as live.
 */
function sandboxVirtualAccounts(
  method: PaymentMethod,
  db: Database,
): VirtualAccountProvider | undefined {
  if (method !== 'paystack' && method !== 'flutterwave') return undefined;
  return {
    requiresBvn: method === 'flutterwave',
    async create(request) {
      return {
        accountNumber: sandboxAccountNumber(method, request.reference),
        accountName: `PLUCKERS/${request.fullname.toUpperCase()}`,
        bankName: SANDBOX_BANK_NAME,
        providerCustomer: null,
        providerReference: request.reference,
      };
    },
    async verifyIncoming(reference) {
      const [row] = await db
        .select()
        .from(sandboxTransfers)
        .where(and(eq(sandboxTransfers.reference, reference), eq(sandboxTransfers.method, method)));
      return row ? incomingOf(row) : null;
    },
    async listIncoming(since, until) {
      const rows = await db
        .select()
        .from(sandboxTransfers)
        .where(
          and(
            eq(sandboxTransfers.method, method),
            gte(sandboxTransfers.createdAt, since),
            lt(sandboxTransfers.createdAt, until),
          ),
        )
        .orderBy(asc(sandboxTransfers.createdAt));
      return rows.map(incomingOf);
    },
  };
}

/**
 * Stands in for a provider when it has no credentials: checkouts happen on this server's own
 * hosted page (/api/v1/payment/sandbox/...), whose Pay and Cancel buttons drive the very same
 * signed webhook and callback path a live provider would. Account names come from the user.
 */
export function createSandboxProvider(options: {
  method: PaymentMethod;
  db: Database;
  publicUrl: string;
  secret: Uint8Array;
}): PaymentProvider {
  return {
    method: options.method,
    mode: 'sandbox',

    async initialise(request: CheckoutRequest) {
      await options.db.insert(sandboxOrders).values({
        reference: request.reference,
        method: options.method,
        amount: request.amountKobo,
      });
      return {
        paymentUrl: `${options.publicUrl}/api/v1/payment/sandbox/${options.method}/${encodeURIComponent(request.reference)}`,
      };
    },

    async verify(reference: string): Promise<VerifiedPayment> {
      const [order] = await options.db
        .select()
        .from(sandboxOrders)
        .where(eq(sandboxOrders.reference, reference));
      if (!order)
        return {
          status: 'failed',
          amountKobo: null,
          currency: null,
          message: 'Unknown sandbox order',
        };
      return {
        status:
          order.status === 'paid' ? 'success' : order.status === 'cancelled' ? 'failed' : 'pending',
        amountKobo: order.amount,
        currency: 'NGN',
        message: order.status === 'cancelled' ? 'Payment was cancelled' : undefined,
      };
    },

    parseWebhook(rawBody, headers) {
      const signature = headers[SANDBOX_SIGNATURE_HEADER];
      const expected = Buffer.from(signSandboxWebhook(options.secret, rawBody), 'hex');
      const given = Buffer.from(typeof signature === 'string' ? signature : '', 'hex');
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new InvalidSignatureError('bad sandbox signature');
      const event = JSON.parse(rawBody.toString('utf8')) as { event?: string; reference?: string };
      if (!event.reference) return null;
      if (event.event === SANDBOX_TRANSFER_EVENT)
        return {
          kind: 'bank_transfer',
          reference: event.reference,
          eventKey: `sandbox:${options.method}:transfer:${event.reference}`,
        };
      if (event.event !== 'charge.success') return null;
      return {
        kind: 'charge',
        reference: event.reference,
        eventKey: `sandbox:${options.method}:${event.reference}`,
      };
    },

    async resolveAccount(_accountNumber, _bankCode, holderName) {
      return { accountName: holderName.toUpperCase() };
    },

    async transfer(request) {
      return { status: 'success', providerReference: `sandbox-${request.reference}` };
    },

    async verifyTransfer(reference) {
      return { status: 'success', providerReference: `sandbox-${reference}` };
    },

    virtualAccounts: sandboxVirtualAccounts(options.method, options.db),
  };
}
