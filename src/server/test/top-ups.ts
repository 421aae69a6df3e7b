import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { payments } from '../db/schema.ts';
import { checkLedger } from '../modules/wallet/ledger-check.ts';

/** The payment row with our reference. */
export async function paymentOf(app: FastifyInstance, reference: string) {
  const [row] = await app.db.select().from(payments).where(eq(payments.reference, reference));
  return row;
}

/** Every invariant of the ledger holds, with the app's payment providers as the check knows them. */
export async function expectLedgerHolds(app: FastifyInstance): Promise<void> {
  const { invariants } = await checkLedger(app.db, app.paymentProviders);
  expect(invariants.filter((invariant) => !invariant.ok)).toEqual([]);
}

/** What a fake provider hands a test to deliver as its webhook. */
export interface WebhookDelivery {
  body: string;
  headers: Record<string, string>;
}

/**
 * A signed-in player's top-up as the payment tests drive it through the API: start a checkout,
 * come back from it, a provider's webhook, and the payment row it left. `publicUrl` is the
 * app's PUBLIC_URL, against which the redirects are read.
 */
export function topUpFlow(
  app: FastifyInstance,
  headers: Record<string, string>,
  publicUrl = 'http://localhost',
) {
  return {
    /** POST /payment/:method: the checkout to send the player to and our reference. */
    async start(amount: number, method: string) {
      const response = await app.inject({
        method: 'POST',
        url: `/api/v1/payment/${method}`,
        headers,
        payload: { amount },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data as { paymentUrl: string; reference: string };
    },
    /**
     * The player presses Pay on the sandbox checkout at `paymentUrl`: the payment succeeds and
     * the browser is sent back (303) to the answer it returns.
     */
    async paySandbox(paymentUrl: string) {
      const paid = await app.inject({
        method: 'POST',
        url: `${new URL(paymentUrl).pathname}/pay`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(paid.statusCode).toBe(303);
      return paid;
    },
    /**
     * The browser back from a checkout (`path` below /payment/callback/, with the provider's
     * query string): what the /PaymentStatus page it is sent to is told.
     */
    async callback(path: string) {
      const response = await app.inject({ url: `/api/v1/payment/callback/${path}` });
      expect(response.statusCode).toBe(302);
      const location = new URL(String(response.headers.location), publicUrl);
      expect(location.pathname).toBe('/PaymentStatus');
      return {
        status: location.searchParams.get('status'),
        message: location.searchParams.get('message'),
      };
    },
    /** A provider's webhook, as its fake signed it. */
    deliver: (method: string, delivery: WebhookDelivery) =>
      app.inject({
        method: 'POST',
        url: `/api/v1/payment/webhook/${method}`,
        headers: delivery.headers,
        payload: delivery.body,
      }),
    /** The payment row with our reference. */
    row: (reference: string) => paymentOf(app, reference),
  };
}

/** A player's account number for top-ups by bank transfer: GET it, POST to make one. */
export const BANK_TRANSFER_ACCOUNT = '/api/v1/payment/bank-transfer/account';

/**
 * Makes (or gives back) the player's account number for top-ups by bank transfer, as the
 * wallet's card asks for it: `payload` carries the BVN where the provider needs one
 * (Flutterwave's permanent accounts).
 */
export async function accountNumberFor(
  app: FastifyInstance,
  headers: Record<string, string>,
  payload: { bvn?: string } = {},
): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: BANK_TRANSFER_ACCOUNT,
    headers,
    payload,
  });
  expect(created.statusCode, created.body).toBe(200);
  const number = created.json().data.account?.accountNumber as string | undefined;
  if (!number) throw new Error(`no account number in ${created.body}`);
  return number;
}
