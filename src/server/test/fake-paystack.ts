import { createHmac, randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody, send, serveFake } from './fake-http.ts';

/**
 * A local stand-in for Paystack's API (https://paystack.com/docs/api) on 127.0.0.1: the
 * documented request and response shapes for checkouts, verification, refunds, account
 * resolution and transfers, with the Bearer secret check. Tests steer it (mark a transaction paid, script a
 * transfer's outcome) and sign webhooks exactly as Paystack does: hex HMAC-SHA512 of the raw
 * body with the secret key, in `x-paystack-signature`.
 */

export type PaystackTransactionStatus =
  | 'abandoned'
  | 'ongoing'
  | 'pending'
  | 'success'
  | 'failed'
  | 'reversed';

export interface FakePaystackTransaction {
  id: number;
  reference: string;
  email: string;
  /** Kobo, as Paystack speaks. */
  amount: number;
  currency: string;
  callbackUrl: string | null;
  status: PaystackTransactionStatus;
  gatewayResponse: string;
  /** `card` for a checkout; `dedicated_nuban` for a transfer into a dedicated virtual account. */
  channel: 'card' | 'dedicated_nuban';
  /** The sender and the account number of a transfer (Paystack's `authorization` on it). */
  transfer: FakeIncomingTransfer | null;
  customerCode: string | null;
  paidAt: string | null;
}

export interface FakeIncomingTransfer {
  receiverAccountNumber: string;
  senderName: string;
  senderBank: string;
  senderAccountNumber: string;
}

export interface FakePaystackCustomer {
  id: number;
  code: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
}

export interface FakeDedicatedAccount {
  id: number;
  customerCode: string;
  accountNumber: string;
  accountName: string;
  bankSlug: string;
}

export interface FakePaystackTransfer {
  reference: string;
  transferCode: string;
  recipient: string;
  amount: number;
  reason: string;
  status: 'pending' | 'success' | 'failed' | 'reversed' | 'otp';
}

export interface FakePaystackRecipient {
  code: string;
  name: string;
  accountNumber: string;
  bankCode: string;
}

/** What the next POST /transfer does. */
export type TransferOutcome =
  | { kind: 'status'; status: FakePaystackTransfer['status'] }
  /** Paystack refuses the transfer: HTTP 400 with status false (nothing is sent). */
  | { kind: 'refuse'; message: string }
  /** The connection drops before an answer: nobody knows whether the money left. */
  | { kind: 'hang-up' }
  /** The request never arrives: the connection drops before Paystack records anything. */
  | { kind: 'lost' };

/** A refund Paystack queued (POST /refund): it goes back to the customer's card or account. */
export interface FakePaystackRefund {
  id: number;
  reference: string;
  /** Kobo. */
  amount: number;
  status: 'pending' | 'processed';
  merchantNote: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export interface FakePaystack {
  url: string;
  secretKey: string;
  /** PAYSTACK_* variables that point the app at this server. */
  env: Record<string, string>;
  transactions: Map<string, FakePaystackTransaction>;
  transfers: FakePaystackTransfer[];
  recipients: FakePaystackRecipient[];
  refunds: FakePaystackRefund[];
  requests: RecordedRequest[];
  customers: FakePaystackCustomer[];
  dedicatedAccounts: FakeDedicatedAccount[];
  /**
   * Someone sends `amount` kobo to a dedicated account number from their bank: Paystack records
   * a successful `dedicated_nuban` transaction under a reference of its own, returned here.
   */
  receiveTransfer(
    accountNumber: string,
    amount: number,
    sender?: { name?: string; bank?: string; accountNumber?: string },
  ): FakePaystackTransaction;
  /** The `charge.success` webhook Paystack sends for a transfer into a dedicated account, signed. */
  dedicatedTransferWebhook(reference: string): { body: string; headers: Record<string, string> };
  /** The next refunds are refused (HTTP 400, status false) with `message`; null accepts again. */
  refuseRefunds(message: string | null): void;
  /** The customer completes the checkout; `overrides` make Paystack report something else. */
  markPaid(reference: string, overrides?: { amount?: number; currency?: string }): void;
  markFailed(reference: string, gatewayResponse?: string): void;
  /** Registers a bank account `GET /bank/resolve` can find. */
  addAccount(bankCode: string, accountNumber: string, accountName: string): void;
  /** Scripts the answers of the next transfers, in order; afterwards transfers succeed. */
  queueTransferOutcomes(...outcomes: TransferOutcome[]): void;
  /** Finishes a transfer the way Paystack's back office would (before a transfer webhook). */
  setTransferStatus(reference: string, status: FakePaystackTransfer['status']): void;
  sign(rawBody: string): string;
  /** A `charge.success` webhook delivery for `reference`, signed with the secret key. */
  chargeWebhook(reference: string): { body: string; headers: Record<string, string> };
  /** A `transfer.*` webhook delivery for the transfer with our `reference`, signed. */
  transferWebhook(
    reference: string,
    event: 'transfer.success' | 'transfer.failed' | 'transfer.reversed',
  ): { body: string; headers: Record<string, string> };
  /** Posts a signed webhook to a running server, e.g. `${origin}/api/v1/payment/webhook/paystack`. */
  deliver(
    url: string,
    delivery: { body: string; headers: Record<string, string> },
  ): Promise<Response>;
  close(): Promise<void>;
}

const fail = (res: ServerResponse, status: number, message: string) =>
  send(res, status, { status: false, message });

export async function startFakePaystack(
  options: { secretKey?: string } = {},
): Promise<FakePaystack> {
  const secretKey = options.secretKey ?? `sk_test_${randomBytes(20).toString('hex')}`;
  const transactions = new Map<string, FakePaystackTransaction>();
  const transfers: FakePaystackTransfer[] = [];
  const recipients: FakePaystackRecipient[] = [];
  const refunds: FakePaystackRefund[] = [];
  let refundRefusal: string | null = null;
  const accounts = new Map<string, string>();
  const requests: RecordedRequest[] = [];
  const customers: FakePaystackCustomer[] = [];
  const dedicatedAccounts: FakeDedicatedAccount[] = [];
  const outcomes: TransferOutcome[] = [];
  // Paystack's transaction ids are unique across its whole platform; fakes in parallel files too.
  let nextId = randomInt(1_000_000_000, 9_000_000_000);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake-paystack');
    const body = await readJsonBody(req);
    if (!body) return fail(res, 400, 'Invalid JSON body');
    requests.push({
      method: req.method ?? 'GET',
      path: url.pathname,
      authorization: req.headers.authorization,
      body,
    });
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return fail(res, 401, 'Invalid key');
    }

    if (req.method === 'POST' && url.pathname === '/transaction/initialize') {
      const amount = Number(body.amount);
      const reference = typeof body.reference === 'string' ? body.reference : '';
      if (typeof body.email !== 'string' || !body.email.includes('@'))
        return fail(res, 400, 'Invalid Email Address Passed');
      if (!Number.isInteger(amount) || amount <= 0) return fail(res, 400, 'Invalid Amount Sent');
      if (!reference) return fail(res, 400, 'Invalid transaction reference');
      if (transactions.has(reference)) return fail(res, 400, 'Duplicate Transaction Reference');
      nextId += 1;
      transactions.set(reference, {
        id: nextId,
        reference,
        email: body.email,
        amount,
        currency: typeof body.currency === 'string' ? body.currency : 'NGN',
        callbackUrl: typeof body.callback_url === 'string' ? body.callback_url : null,
        // Paystack reports a checkout nobody has paid yet as "abandoned" until it completes.
        status: 'abandoned',
        gatewayResponse: 'The transaction was not completed',
        channel: 'card',
        transfer: null,
        customerCode: null,
        paidAt: null,
      });
      const accessCode = randomBytes(8).toString('hex');
      return send(res, 200, {
        status: true,
        message: 'Authorization URL created',
        data: {
          authorization_url: `https://checkout.paystack.com/${accessCode}`,
          access_code: accessCode,
          reference,
        },
      });
    }

    const verify = /^\/transaction\/verify\/(.+)$/.exec(url.pathname);
    if (req.method === 'GET' && verify) {
      const transaction = transactions.get(decodeURIComponent(verify[1] ?? ''));
      if (!transaction) return fail(res, 400, 'Transaction reference not found');
      return send(res, 200, {
        status: true,
        message: 'Verification successful',
        data: transactionData(transaction),
      });
    }

    if (req.method === 'GET' && url.pathname === '/transaction') {
      // Newest first, as Paystack lists them; `from`/`to` bound the creation time.
      const from = url.searchParams.get('from');
      const to = url.searchParams.get('to');
      const status = url.searchParams.get('status');
      const perPage = Number(url.searchParams.get('perPage') ?? 50);
      const page = Number(url.searchParams.get('page') ?? 1);
      const listed = [...transactions.values()]
        .filter(
          (t) =>
            (!status || t.status === status) &&
            (!from || (t.paidAt ?? '') >= new Date(from).toISOString()) &&
            (!to || (t.paidAt ?? '') <= new Date(to).toISOString()),
        )
        .reverse();
      return send(res, 200, {
        status: true,
        message: 'Transactions retrieved',
        data: listed.slice((page - 1) * perPage, page * perPage).map(transactionData),
        meta: {
          total: listed.length,
          perPage,
          page,
          pageCount: Math.max(1, Math.ceil(listed.length / perPage)),
        },
      });
    }

    if (req.method === 'POST' && url.pathname === '/customer') {
      if (typeof body.email !== 'string' || !body.email.includes('@'))
        return fail(res, 400, 'Invalid Email Address Passed');
      // Paystack answers a known e-mail with the customer it already has.
      let customer = customers.find((c) => c.email === body.email);
      if (!customer) {
        nextId += 1;
        customer = {
          id: nextId,
          code: `CUS_${randomBytes(8).toString('hex')}`,
          email: body.email,
          firstName: String(body.first_name ?? ''),
          lastName: String(body.last_name ?? ''),
          phone: String(body.phone ?? ''),
        };
        customers.push(customer);
      }
      return send(res, 200, {
        status: true,
        message: 'Customer created',
        data: {
          id: customer.id,
          customer_code: customer.code,
          email: customer.email,
          first_name: customer.firstName,
          last_name: customer.lastName,
          phone: customer.phone,
          integration: 1,
          domain: 'test',
          identified: false,
        },
      });
    }

    if (req.method === 'POST' && url.pathname === '/dedicated_account') {
      const customer = customers.find(
        (c) => c.code === body.customer || String(c.id) === body.customer,
      );
      if (!customer) return fail(res, 400, 'Customer not found');
      if (typeof body.preferred_bank !== 'string' || !body.preferred_bank)
        return fail(res, 400, 'Preferred bank is required');
      // One active dedicated account per customer: asking again answers with the same one.
      let account = dedicatedAccounts.find((a) => a.customerCode === customer.code);
      if (!account) {
        nextId += 1;
        account = {
          id: nextId,
          customerCode: customer.code,
          accountNumber: String(randomInt(1_000_000_000, 9_999_999_999)),
          accountName: `PLUCKERS/${`${customer.firstName} ${customer.lastName}`.trim().toUpperCase()}`,
          bankSlug: body.preferred_bank,
        };
        dedicatedAccounts.push(account);
      }
      return send(res, 200, {
        status: true,
        message: 'NUBAN successfully created',
        data: {
          bank: { name: bankName(account.bankSlug), id: 20, slug: account.bankSlug },
          account_name: account.accountName,
          account_number: account.accountNumber,
          assigned: true,
          currency: 'NGN',
          active: true,
          id: account.id,
          assignment: { integration: 1, assignee_id: customer.id, assignee_type: 'Customer' },
          customer: { id: customer.id, customer_code: customer.code, email: customer.email },
        },
      });
    }

    if (req.method === 'POST' && url.pathname === '/refund') {
      // `transaction` is the transaction's reference or id; `amount` (kobo) defaults to all of it.
      const key = String(body.transaction ?? '');
      const transaction =
        transactions.get(key) ?? [...transactions.values()].find((t) => String(t.id) === key);
      if (!transaction) return fail(res, 400, 'Transaction reference not found');
      if (refundRefusal) return fail(res, 400, refundRefusal);
      if (transaction.status !== 'success')
        return fail(res, 400, 'Cannot refund a transaction that was not successful');
      const refunded = refunds
        .filter((r) => r.reference === transaction.reference)
        .reduce((sum, r) => sum + r.amount, 0);
      const amount =
        body.amount === undefined ? transaction.amount - refunded : Number(body.amount);
      if (!Number.isInteger(amount) || amount <= 0) return fail(res, 400, 'Invalid amount');
      if (refunded + amount > transaction.amount)
        return fail(res, 400, 'Refund amount cannot be more than the transaction amount');
      nextId += 1;
      const refund: FakePaystackRefund = {
        id: nextId,
        reference: transaction.reference,
        amount,
        status: 'pending',
        merchantNote: String(body.merchant_note ?? ''),
      };
      refunds.push(refund);
      return send(res, 200, {
        status: true,
        message: 'Refund has been queued for processing',
        data: {
          transaction: {
            id: transaction.id,
            domain: 'test',
            reference: transaction.reference,
            amount: transaction.amount,
            channel: transaction.channel,
            currency: transaction.currency,
          },
          integration: 1,
          deducted_amount: 0,
          channel: null,
          merchant_note: refund.merchantNote,
          customer_note: String(body.customer_note ?? ''),
          status: refund.status,
          refunded_by: 'api',
          expected_at: new Date(Date.now() + 5 * 86_400_000).toISOString(),
          currency: transaction.currency,
          domain: 'test',
          amount,
          fully_deducted: false,
          id: refund.id,
        },
      });
    }

    if (req.method === 'GET' && url.pathname === '/bank/resolve') {
      const accountNumber = url.searchParams.get('account_number') ?? '';
      const bankCode = url.searchParams.get('bank_code') ?? '';
      const name = accounts.get(`${bankCode}:${accountNumber}`);
      if (!name)
        return fail(res, 422, 'Could not resolve account name. Check parameters or try again.');
      return send(res, 200, {
        status: true,
        message: 'Account number resolved',
        data: { account_number: accountNumber, account_name: name, bank_id: 9 },
      });
    }

    if (req.method === 'POST' && url.pathname === '/transferrecipient') {
      if (body.type !== 'nuban') return fail(res, 400, 'Invalid recipient type');
      if (typeof body.account_number !== 'string' || typeof body.bank_code !== 'string')
        return fail(res, 400, 'Account number and bank code are required');
      const recipient: FakePaystackRecipient = {
        code: `RCP_${randomBytes(6).toString('hex')}`,
        name: String(body.name ?? ''),
        accountNumber: body.account_number,
        bankCode: body.bank_code,
      };
      recipients.push(recipient);
      return send(res, 201, {
        status: true,
        message: 'Transfer recipient created successfully',
        data: {
          active: true,
          currency: body.currency ?? 'NGN',
          name: recipient.name,
          recipient_code: recipient.code,
          type: 'nuban',
          details: {
            account_number: recipient.accountNumber,
            account_name: recipient.name,
            bank_code: recipient.bankCode,
          },
        },
      });
    }

    if (req.method === 'POST' && url.pathname === '/transfer') {
      const amount = Number(body.amount);
      const reference = typeof body.reference === 'string' ? body.reference : '';
      const recipient = recipients.find((r) => r.code === body.recipient);
      if (body.source !== 'balance') return fail(res, 400, 'Invalid transfer source');
      if (!recipient) return fail(res, 400, 'Invalid recipient');
      if (!Number.isInteger(amount) || amount <= 0) return fail(res, 400, 'Invalid amount');
      if (!/^[a-z0-9_-]{16,50}$/.test(reference))
        return fail(res, 400, 'Invalid transfer reference');
      if (transfers.some((t) => t.reference === reference))
        return fail(res, 400, 'Transfer reference already exists');
      const outcome = outcomes.shift() ?? { kind: 'status', status: 'success' };
      if (outcome.kind === 'lost') {
        req.socket.destroy();
        return;
      }
      if (outcome.kind === 'refuse') return fail(res, 400, outcome.message);
      const transfer: FakePaystackTransfer = {
        reference,
        transferCode: `TRF_${randomBytes(6).toString('hex')}`,
        recipient: recipient.code,
        amount,
        reason: String(body.reason ?? ''),
        status: outcome.kind === 'status' ? outcome.status : 'pending',
      };
      transfers.push(transfer);
      if (outcome.kind === 'hang-up') {
        // The transfer was queued, but the answer never reaches the caller.
        req.socket.destroy();
        return;
      }
      return send(res, 200, {
        status: true,
        message:
          transfer.status === 'otp'
            ? 'Transfer requires OTP to continue'
            : 'Transfer has been queued',
        data: {
          reference,
          integration: 1,
          domain: 'test',
          amount,
          currency: 'NGN',
          source: 'balance',
          reason: transfer.reason,
          recipient: recipient.code,
          status: transfer.status,
          transfer_code: transfer.transferCode,
        },
      });
    }

    const verifyTransfer = /^\/transfer\/verify\/(.+)$/.exec(url.pathname);
    if (req.method === 'GET' && verifyTransfer) {
      const transfer = transfers.find(
        (t) => t.reference === decodeURIComponent(verifyTransfer[1] ?? ''),
      );
      if (!transfer) return fail(res, 400, 'Transfer not found');
      return send(res, 200, {
        status: true,
        message: 'Transfer retrieved',
        data: {
          amount: transfer.amount,
          currency: 'NGN',
          reference: transfer.reference,
          status: transfer.status,
          transfer_code: transfer.transferCode,
        },
      });
    }

    return fail(res, 404, 'Not found');
  }

  function transactionData(transaction: FakePaystackTransaction) {
    const transfer = transaction.transfer;
    return {
      id: transaction.id,
      domain: 'test',
      status: transaction.status,
      reference: transaction.reference,
      amount: transaction.amount,
      gateway_response: transaction.gatewayResponse,
      paid_at: transaction.paidAt,
      channel: transaction.channel,
      currency: transaction.currency,
      customer: { email: transaction.email, customer_code: transaction.customerCode },
      authorization: transfer
        ? {
            channel: 'dedicated_nuban',
            bank: transfer.senderBank,
            sender_bank: transfer.senderBank,
            sender_bank_account_number: transfer.senderAccountNumber,
            sender_name: transfer.senderName,
            sender_country: 'NG',
            receiver_bank_account_number: transfer.receiverAccountNumber,
            receiver_bank: bankName(
              dedicatedAccounts.find((a) => a.accountNumber === transfer.receiverAccountNumber)
                ?.bankSlug ?? 'test-bank',
            ),
            narration: `NIP TRANSFER FROM ${transfer.senderName}`,
          }
        : { channel: 'card', card_type: 'visa', last4: '4081' },
    };
  }

  const { server, url } = await serveFake(handle, (res, error) => fail(res, 500, String(error)));

  const sign = (rawBody: string) => createHmac('sha512', secretKey).update(rawBody).digest('hex');
  const signed = (payload: unknown) => {
    const body = JSON.stringify(payload);
    return {
      body,
      headers: { 'content-type': 'application/json', 'x-paystack-signature': sign(body) },
    };
  };
  const transaction = (reference: string) => {
    const found = transactions.get(reference);
    if (!found) throw new Error(`fake Paystack: no transaction ${reference}`);
    return found;
  };

  return {
    url,
    secretKey,
    env: { PAYSTACK_SECRET_KEY: secretKey, PAYSTACK_BASE_URL: url },
    transactions,
    transfers,
    recipients,
    refunds,
    requests,
    customers,
    dedicatedAccounts,
    receiveTransfer(accountNumber, amount, sender = {}) {
      const account = dedicatedAccounts.find((a) => a.accountNumber === accountNumber);
      if (!account) throw new Error(`fake Paystack: no dedicated account ${accountNumber}`);
      const customer = customers.find((c) => c.code === account.customerCode);
      nextId += 1;
      const transaction: FakePaystackTransaction = {
        id: nextId,
        reference: randomBytes(8).toString('hex'),
        email: customer?.email ?? '',
        amount,
        currency: 'NGN',
        callbackUrl: null,
        status: 'success',
        gatewayResponse: 'Approved',
        channel: 'dedicated_nuban',
        transfer: {
          receiverAccountNumber: accountNumber,
          senderName: sender.name ?? 'ADAEZE OKAFOR',
          senderBank: sender.bank ?? 'Guaranty Trust Bank',
          senderAccountNumber: sender.accountNumber ?? '0123456789',
        },
        customerCode: account.customerCode,
        paidAt: new Date().toISOString(),
      };
      transactions.set(transaction.reference, transaction);
      return transaction;
    },
    dedicatedTransferWebhook(reference) {
      return signed({ event: 'charge.success', data: transactionData(transaction(reference)) });
    },
    refuseRefunds(message) {
      refundRefusal = message;
    },
    markPaid(reference, overrides = {}) {
      const found = transaction(reference);
      found.status = 'success';
      found.gatewayResponse = 'Successful';
      found.paidAt = new Date().toISOString();
      if (overrides.amount !== undefined) found.amount = overrides.amount;
      if (overrides.currency !== undefined) found.currency = overrides.currency;
    },
    markFailed(reference, gatewayResponse = 'Declined') {
      const found = transaction(reference);
      found.status = 'failed';
      found.gatewayResponse = gatewayResponse;
    },
    addAccount(bankCode, accountNumber, accountName) {
      accounts.set(`${bankCode}:${accountNumber}`, accountName);
    },
    queueTransferOutcomes(...next) {
      outcomes.push(...next);
    },
    setTransferStatus(reference, status) {
      const found = transfers.find((t) => t.reference === reference);
      if (!found) throw new Error(`fake Paystack: no transfer ${reference}`);
      found.status = status;
    },
    sign,
    chargeWebhook(reference) {
      const found = transaction(reference);
      return signed({
        event: 'charge.success',
        data: {
          id: found.id,
          domain: 'test',
          status: found.status,
          reference: found.reference,
          amount: found.amount,
          currency: found.currency,
          gateway_response: found.gatewayResponse,
          customer: { email: found.email },
        },
      });
    },
    transferWebhook(reference, event) {
      const found = transfers.find((t) => t.reference === reference);
      if (!found) throw new Error(`fake Paystack: no transfer ${reference}`);
      return signed({
        event,
        data: {
          amount: found.amount,
          currency: 'NGN',
          reference: found.reference,
          status: found.status,
          transfer_code: found.transferCode,
        },
      });
    },
    deliver(target, delivery) {
      return fetch(target, { method: 'POST', headers: delivery.headers, body: delivery.body });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The banks Paystack issues dedicated accounts at, by slug (`test-bank` in test mode). */
function bankName(slug: string): string {
  return (
    { 'wema-bank': 'Wema Bank', 'titan-paystack': 'Paystack-Titan', 'test-bank': 'Test Bank' }[
      slug
    ] ?? slug
  );
}
