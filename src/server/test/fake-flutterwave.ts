import { randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody, send, serveFake } from './fake-http.ts';

/**
 * A local stand-in for Flutterwave's v3 API (https://developer.flutterwave.com) on 127.0.0.1:
 * Flutterwave Standard's POST /v3/payments (a hosted checkout link), verification by
 * transaction id and by tx_ref, refunds by transaction id, virtual account numbers (POST
 * /v3/virtual-account-numbers; a permanent one needs a BVN) whose transfers are `bank_transfer`
 * transactions under the account's tx_ref, and the transaction list, with the Bearer secret check. A checkout has no transaction
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
  /** `card` for a checkout; `bank_transfer` for money sent to a virtual account number. */
  paymentType: 'card' | 'bank_transfer';
  /** The originator of a bank transfer, as Flutterwave's `meta` carries it. */
  originator: { name: string; bank: string; accountNumber: string } | null;
  createdAt: string;
}

/** A virtual account number (POST /v3/virtual-account-numbers). */
export interface FakeFlutterwaveVirtualAccount {
  txRef: string;
  orderRef: string;
  accountNumber: string;
  bankName: string;
  email: string;
  bvn: string | null;
  isPermanent: boolean;
  narration: string;
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
  virtualAccounts: FakeFlutterwaveVirtualAccount[];
  /**
   * Someone sends `amount` naira to a virtual account number from their bank: a successful
   * `bank_transfer` transaction under the account's tx_ref, with a flw_ref and id of its own.
   */
  receiveTransfer(
    accountNumber: string,
    amount: number,
    sender?: { name?: string; bank?: string },
  ): FakeFlutterwaveTransaction;
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
    narration:
      transaction.paymentType === 'bank_transfer'
        ? `Bank transfer from ${transaction.originator?.name ?? ''}`
        : 'CARD Transaction ',
    status: transaction.status,
    payment_type: transaction.paymentType,
    created_at: transaction.createdAt,
    ...(transaction.originator
      ? {
          meta: {
            originatoraccountnumber: transaction.originator.accountNumber,
            originatorname: transaction.originator.name,
            bankname: transaction.originator.bank,
            originatoramount: 'N/A',
          },
        }
      : {}),
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
  const virtualAccounts: FakeFlutterwaveVirtualAccount[] = [];
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

    if (req.method === 'POST' && url.pathname === '/v3/virtual-account-numbers') {
      const txRef = typeof body.tx_ref === 'string' ? body.tx_ref : '';
      if (typeof body.email !== 'string' || !body.email.includes('@'))
        return fail(res, 400, 'email is required');
      if (!txRef) return fail(res, 400, 'tx_ref is required');
      const isPermanent = body.is_permanent === true;
      const bvn = typeof body.bvn === 'string' ? body.bvn : null;
      if (isPermanent && !bvn) return fail(res, 400, 'BVN is required for static account number');
      if (bvn !== null && !/^\d{11}$/.test(bvn)) return fail(res, 400, 'Invalid BVN');
      // The same tx_ref answers with the account already made under it.
      let account = virtualAccounts.find((a) => a.txRef === txRef);
      if (!account) {
        account = {
          txRef,
          orderRef: `URF_${Date.now()}_${randomInt(1_000_000, 9_999_999)}`,
          accountNumber: String(randomInt(7_000_000_000, 7_999_999_999)),
          bankName: 'WEMA BANK',
          email: body.email,
          bvn,
          isPermanent,
          narration: String(body.narration ?? ''),
        };
        virtualAccounts.push(account);
      }
      return send(res, 200, {
        status: 'success',
        message: 'Virtual account created',
        data: {
          response_code: '02',
          response_message: 'Transaction in progress',
          flw_ref: `FLW-${account.orderRef}`,
          order_ref: account.orderRef,
          account_number: account.accountNumber,
          frequency: 'N/A',
          bank_name: account.bankName,
          created_at: new Date().toISOString(),
          expiry_date: 'N/A',
          note: `Please make a bank transfer to ${account.narration}`,
          amount: null,
        },
      });
    }

    if (req.method === 'GET' && url.pathname === '/v3/transactions') {
      // Newest first; `from`/`to` are days (YYYY-MM-DD), both included.
      const from = url.searchParams.get('from') ?? '0000-00-00';
      const to = url.searchParams.get('to') ?? '9999-99-99';
      const status = url.searchParams.get('status');
      const page = Number(url.searchParams.get('page') ?? 1);
      const perPage = 10;
      const listed = transactions
        .filter((t) => {
          const on = t.createdAt.slice(0, 10);
          return (!status || t.status === status) && on >= from && on <= to;
        })
        .reverse();
      return send(res, 200, {
        status: 'success',
        message: 'Transactions fetched',
        meta: {
          page_info: {
            total: listed.length,
            current_page: page,
            total_pages: Math.max(1, Math.ceil(listed.length / perPage)),
          },
        },
        data: listed.slice((page - 1) * perPage, page * perPage).map(describeTransaction),
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
    virtualAccounts,
    receiveTransfer(accountNumber, amount, sender = {}) {
      const account = virtualAccounts.find((a) => a.accountNumber === accountNumber);
      if (!account) throw new Error(`fake Flutterwave: no virtual account ${accountNumber}`);
      nextId += 1;
      const transaction: FakeFlutterwaveTransaction = {
        id: nextId,
        txRef: account.txRef,
        flwRef: `FLW${randomBytes(10).toString('hex').toUpperCase()}`,
        amount,
        currency: 'NGN',
        status: 'successful',
        processorResponse: 'success',
        email: account.email,
        paymentType: 'bank_transfer',
        originator: {
          name: sender.name ?? 'ADAEZE OKAFOR',
          bank: sender.bank ?? 'Guaranty Trust Bank',
          accountNumber: '0123456789',
        },
        createdAt: new Date().toISOString(),
      };
      transactions.push(transaction);
      return transaction;
    },
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
        paymentType: 'card',
        originator: null,
        createdAt: new Date().toISOString(),
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
          'event.type':
            transaction.paymentType === 'bank_transfer'
              ? 'BANK_TRANSFER_TRANSACTION'
              : 'CARD_TRANSACTION',
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
