import { randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody, send, serveFake } from './fake-http.ts';

/**
 * A local stand-in for Flutterwave's v3 API (https://developer.flutterwave.com) on 127.0.0.1:
 * Flutterwave Standard's POST /v3/payments (a hosted checkout link), verification by
 * transaction id and by tx_ref, refunds by transaction id, with the Bearer secret check. A checkout has no transaction
 * until the customer tries to pay; each attempt (a declined card, then another) is a new
 * transaction with its own id under the same tx_ref. Webhooks carry the dashboard's secret
 * hash in `verif-hash`, as Flutterwave sends them.
 */

export type FlutterwaveStatus = 'successful' | 'failed' | 'pending';

export interface FakeFlutterwaveCheckout {
  txRef: string;
  /** Naira, as Flutterwave speaks. */
  amount: number;
  currency: string;
  redirectUrl: string;
  email: string;
  link: string;
}

export interface FakeFlutterwaveTransaction {
  id: number;
  txRef: string;
  flwRef: string;
  amount: number;
  currency: string;
  status: FlutterwaveStatus;
  processorResponse: string;
  email: string;
}

/** A refund Flutterwave initiated (POST /v3/transactions/:id/refund), to the payment source. */
export interface FakeFlutterwaveRefund {
  id: number;
  transactionId: number;
  txRef: string;
  /** Naira. */
  amount: number;
  comments: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  search: string;
  authorization: string | undefined;
  body: unknown;
}

export interface Delivery {
  body: string;
  headers: Record<string, string>;
}

export interface FakeFlutterwave {
  url: string;
  secretKey: string;
  webhookHash: string;
  /** FLUTTERWAVE_* variables that point the app at this server. */
  env: Record<string, string>;
  checkouts: Map<string, FakeFlutterwaveCheckout>;
  transactions: FakeFlutterwaveTransaction[];
  refunds: FakeFlutterwaveRefund[];
  requests: RecordedRequest[];
  /**
   * The customer tries to pay the checkout: a new transaction, successful unless `status` says
   * otherwise; `amount`/`currency` make Flutterwave report something other than what was asked.
   */
  attempt(
    txRef: string,
    outcome?: {
      status?: FlutterwaveStatus;
      amount?: number;
      currency?: string;
      processorResponse?: string;
    },
  ): FakeFlutterwaveTransaction;
  /** The query string Flutterwave appends to redirect_url when the browser comes back. */
  redirectQuery(
    txRef: string,
    transaction?: FakeFlutterwaveTransaction,
    status?: 'successful' | 'failed' | 'cancelled',
  ): string;
  /** A `charge.completed` delivery about `transaction`, with the secret hash. */
  chargeWebhook(transaction: FakeFlutterwaveTransaction): Delivery;
  close(): Promise<void>;
}

const fail = (res: ServerResponse, status: number, message: string) =>
  send(res, status, { status: 'error', message, data: null });

function describeTransaction(transaction: FakeFlutterwaveTransaction) {
  return {
    id: transaction.id,
    tx_ref: transaction.txRef,
    flw_ref: transaction.flwRef,
    device_fingerprint: 'N/A',
    amount: transaction.amount,
    currency: transaction.currency,
    charged_amount: transaction.amount,
    app_fee: Math.round(transaction.amount * 1.4) / 100,
    merchant_fee: 0,
    processor_response: transaction.processorResponse,
    auth_model: 'PIN',
    ip: '127.0.0.1',
    narration: 'CARD Transaction ',
    status: transaction.status,
    payment_type: 'card',
    created_at: new Date().toISOString(),
    account_id: 17321,
    customer: { id: 215604089, name: 'Pluckers Player', email: transaction.email },
  };
}

export async function startFakeFlutterwave(): Promise<FakeFlutterwave> {
  const secretKey = `FLWSECK_TEST-${randomBytes(16).toString('hex')}-X`;
  const webhookHash = randomBytes(18).toString('base64url');
  const checkouts = new Map<string, FakeFlutterwaveCheckout>();
  const transactions: FakeFlutterwaveTransaction[] = [];
  const refunds: FakeFlutterwaveRefund[] = [];
  const requests: RecordedRequest[] = [];
  // Transaction ids are unique across Flutterwave; fakes running in parallel files too.
  let nextId = randomInt(100_000_000, 900_000_000);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake-flutterwave');
    const body = await readJsonBody(req);
    if (!body) return fail(res, 400, 'Invalid JSON body');
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      search: url.search,
      authorization: req.headers.authorization,
      body,
    });
    if (req.headers.authorization !== `Bearer ${secretKey}`)
      return fail(res, 401, 'Invalid authorization key');

    if (req.method === 'POST' && url.pathname === '/v3/payments') {
      const txRef = typeof body.tx_ref === 'string' ? body.tx_ref : '';
      const amount = typeof body.amount === 'number' ? body.amount : Number(body.amount);
      const customer = (body.customer ?? {}) as { email?: unknown };
      if (!txRef) return fail(res, 400, 'tx_ref is required');
      if (!Number.isFinite(amount) || amount <= 0) return fail(res, 400, 'Invalid amount');
      if (typeof body.redirect_url !== 'string') return fail(res, 400, 'redirect_url is required');
      if (typeof customer.email !== 'string' || !customer.email.includes('@'))
        return fail(res, 400, 'customer.email is required');
      if (checkouts.has(txRef)) return fail(res, 400, 'Duplicate tx_ref');
      const link = `https://checkout.flutterwave.com/v3/hosted/pay/${randomBytes(10).toString('hex')}`;
      checkouts.set(txRef, {
        txRef,
        amount,
        currency: typeof body.currency === 'string' ? body.currency : 'NGN',
        redirectUrl: body.redirect_url,
        email: customer.email,
        link,
      });
      return send(res, 200, { status: 'success', message: 'Hosted Link', data: { link } });
    }

    const byId = /^\/v3\/transactions\/([^/]+)\/verify$/.exec(url.pathname);
    if (req.method === 'GET' && byId) {
      const found = transactions.find((t) => String(t.id) === byId[1]);
      if (!found) return fail(res, 400, 'No transaction was found for this id');
      return send(res, 200, {
        status: 'success',
        message: 'Transaction fetched successfully',
        data: describeTransaction(found),
      });
    }

    const refund = /^\/v3\/transactions\/([^/]+)\/refund$/.exec(url.pathname);
    if (req.method === 'POST' && refund) {
      const found = transactions.find((t) => String(t.id) === refund[1]);
      if (!found) return fail(res, 400, 'No transaction was found for this id');
      if (found.status !== 'successful')
        return fail(res, 400, 'Only successful transactions can be refunded');
      const refunded = refunds
        .filter((r) => r.transactionId === found.id)
        .reduce((sum, r) => sum + r.amount, 0);
      // `amount` (naira) makes a partial refund; without it, what is left of the transaction.
      const amount = body.amount === undefined ? found.amount - refunded : Number(body.amount);
      if (!Number.isFinite(amount) || amount <= 0) return fail(res, 400, 'Invalid amount');
      if (refunded + amount > found.amount)
        return fail(res, 400, 'Refund amount cannot exceed the transaction amount');
      nextId += 1;
      const entry: FakeFlutterwaveRefund = {
        id: nextId,
        transactionId: found.id,
        txRef: found.txRef,
        amount,
        comments: String(body.comments ?? ''),
      };
      refunds.push(entry);
      return send(res, 200, {
        status: 'success',
        message: 'Transaction refund initiated',
        data: {
          id: entry.id,
          account_id: 17321,
          tx_id: found.id,
          flw_ref: `URF_${Date.now()}_${randomInt(1_000_000, 9_999_999)}`,
          wallet_id: 18320,
          amount_refunded: amount,
          status: 'completed',
          destination: 'payment_source',
          meta: { source: 'availablebalance' },
          created_at: new Date().toISOString(),
        },
      });
    }

    if (req.method === 'GET' && url.pathname === '/v3/transactions/verify_by_reference') {
      const txRef = url.searchParams.get('tx_ref') ?? '';
      const found = transactions.filter((t) => t.txRef === txRef).at(-1);
      if (!found) return fail(res, 400, 'No transaction was found for this id');
      return send(res, 200, {
        status: 'success',
        message: 'Transaction fetched successfully',
        data: describeTransaction(found),
      });
    }

    return fail(res, 404, 'Not found');
  }

  const { server, url } = await serveFake(handle, (res, error) => fail(res, 500, String(error)));

  return {
    url,
    secretKey,
    webhookHash,
    env: {
      FLUTTERWAVE_SECRET_KEY: secretKey,
      FLUTTERWAVE_WEBHOOK_HASH: webhookHash,
      FLUTTERWAVE_BASE_URL: url,
    },
    checkouts,
    transactions,
    refunds,
    requests,
    attempt(txRef, outcome = {}) {
      const checkout = checkouts.get(txRef);
      if (!checkout) throw new Error(`fake Flutterwave: no checkout ${txRef}`);
      const status = outcome.status ?? 'successful';
      nextId += 1;
      const transaction: FakeFlutterwaveTransaction = {
        id: nextId,
        txRef,
        flwRef: `FLW-MOCK-${randomBytes(8).toString('hex')}`,
        amount: outcome.amount ?? checkout.amount,
        currency: outcome.currency ?? checkout.currency,
        status,
        processorResponse:
          outcome.processorResponse ??
          (status === 'successful'
            ? 'Approved by Financial Institution'
            : status === 'failed'
              ? 'Declined'
              : 'Pending validation'),
        email: checkout.email,
      };
      transactions.push(transaction);
      return transaction;
    },
    redirectQuery(txRef, transaction, status) {
      const query = new URLSearchParams({
        status: status ?? transaction?.status ?? 'cancelled',
        tx_ref: txRef,
      });
      if (transaction) query.set('transaction_id', String(transaction.id));
      return query.toString();
    },
    chargeWebhook(transaction) {
      return {
        body: JSON.stringify({
          event: 'charge.completed',
          data: describeTransaction(transaction),
          'event.type': 'CARD_TRANSACTION',
        }),
        headers: { 'content-type': 'application/json', 'verif-hash': webhookHash },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
