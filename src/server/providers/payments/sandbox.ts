import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sandboxOrders } from '../../db/schema.ts';
import {
  type CheckoutRequest,
  InvalidSignatureError,
  type PaymentMethod,
  type PaymentProvider,
  type VerifiedPayment,
} from './types.ts';

export const SANDBOX_SIGNATURE_HEADER = 'x-pluckers-sandbox-signature';

export function signSandboxWebhook(secret: Uint8Array, rawBody: Buffer | string): string {
  return createHmac('sha512', secret).update(rawBody).digest('hex');
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
      if (event.event !== 'charge.success' || !event.reference) return null;
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
  };
}
