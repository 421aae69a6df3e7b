import type { PaymentMethod } from '../../../shared/schemas/wallet.ts';

export type { PaymentMethod };

export interface CheckoutRequest {
  reference: string;
  amountKobo: bigint;
  email: string;
  fullname: string;
  phoneNumber: string;
  callbackUrl: string;
}

export interface VerifiedPayment {
  status: 'success' | 'failed' | 'pending';
  amountKobo: bigint | null;
  currency: string | null;
  /** The provider's own words, kept for the player's failure message. */
  message?: string;
}

export interface TransferRequest {
  reference: string;
  amountKobo: bigint;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  reason: string;
}

export interface TransferResult {
  /**
   * `reversed`: the provider sent the money and then took it back (it returned to us).
   * `unknown` (from `verifyTransfer` only): the provider has no transfer under this reference,
   * so the request never reached it and nothing was sent.
   */
  status: 'success' | 'pending' | 'failed' | 'reversed' | 'unknown';
  providerReference: string | null;
  message?: string;
}

export class ProviderError extends Error {
  /**
   * True when the provider answered and refused (a 4xx answer, or an operation it does not
   * offer): it certainly did not act. False when we cannot know (no answer, timeout, 5xx, a
   * garbled body): a transfer may have been sent, so nothing may be refunded on that basis.
   */
  readonly refused: boolean;
  /** The provider's HTTP status, when it answered. */
  readonly httpStatus: number | undefined;

  constructor(message: string, options: { refused?: boolean; httpStatus?: number } = {}) {
    super(message);
    this.name = 'ProviderError';
    this.httpStatus = options.httpStatus;
    this.refused =
      options.refused ??
      (options.httpStatus !== undefined && options.httpStatus >= 400 && options.httpStatus < 500);
  }
}

/**
 * What a webhook delivery is about: a card payment (top-up), a payout transfer, or money that
 * arrived by bank transfer in a player's account number (`bank_transfer`).
 */
export interface WebhookEvent {
  kind: 'charge' | 'transfer' | 'bank_transfer';
  /**
   * Our reference: a payment's, or `wd-<withdrawal id>` for a transfer; for a bank transfer the
   * provider's own transaction reference (nobody started it on our side).
   */
  reference: string;
  eventKey: string;
  /** The provider's own id of the transaction, where it verifies by id (Flutterwave). */
  transactionId?: string;
}

/**
 * What the provider told us about a payment, besides our reference, that lets it be verified
 * precisely (Flutterwave's transaction id). Only a hint: the answer must still name our reference.
 */
export interface VerifyHint {
  transactionId?: string;
}

/** What Pluckers needs from a card/transfer provider; each provider speaks its own API. */
export interface PaymentProvider {
  method: PaymentMethod;
  mode: 'live' | 'sandbox';
  initialise(request: CheckoutRequest): Promise<{ paymentUrl: string }>;
  verify(reference: string, hint?: VerifyHint): Promise<VerifiedPayment>;
  /**
   * Checks a webhook delivery (signature where the provider signs) and returns the payment
   * reference it is about, or null when it concerns nothing we credit. Throws on a bad signature.
   */
  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): WebhookEvent | null;
  /** The name on a bank account; the sandbox answers with `holderName` (the player's own). */
  resolveAccount(
    accountNumber: string,
    bankCode: string,
    holderName: string,
  ): Promise<{ accountName: string }>;
  /** Sends a payout. Safe to call once per reference: providers refuse a repeated reference. */
  transfer(request: TransferRequest): Promise<TransferResult>;
  /** Asks where a transfer we started (by our reference) stands now. */
  verifyTransfer(reference: string): Promise<TransferResult>;
  /**
   * Returns a completed payment (our reference) to the card or account it came from, in full.
   * Resolves once the provider has accepted the refund; throws a ProviderError otherwise.
   * Absent where the provider offers no refund API (TransactPay, the sandbox).
   */
  refund?(reference: string, amountKobo: bigint, note: string, hint?: VerifyHint): Promise<void>;
  /** Account numbers for bank transfers; absent where the provider offers none (TransactPay). */
  virtualAccounts?: VirtualAccountProvider;
}

/** A player's account number at the provider, as it answered when it made it. */
export interface VirtualAccount {
  accountNumber: string;
  accountName: string;
  bankName: string;
  /** The provider's customer (Paystack's customer_code), where it has one. */
  providerCustomer: string | null;
  /** The provider's id of the account, or the reference its transfers name it by. */
  providerReference: string | null;
}

/** Our references of account numbers (`va-<user id>`), told apart from checkouts' (PLK-…). */
export const VIRTUAL_ACCOUNT_REFERENCE_PREFIX = 'va-';

/** Money that arrived in an account number, as the provider's API (not a webhook) reports it. */
export interface IncomingTransfer {
  /** The provider's transaction reference: what the payment is kept under, once. */
  reference: string;
  /** The provider's id of the transaction (Flutterwave refunds and verifies by it). */
  transactionId: string;
  /** The account number it was sent to, where the provider says (Paystack). */
  accountNumber: string | null;
  /**
   * Otherwise the reference the account was made under (`VirtualAccount.providerReference`),
   * which the provider repeats on every transfer into it (Flutterwave's tx_ref).
   */
  accountReference: string | null;
  amountKobo: bigint;
  currency: string;
  senderName: string | null;
  senderBank: string | null;
}

/** Account numbers for top-ups by bank transfer (Paystack dedicated virtual accounts, Flutterwave virtual accounts). */
export interface VirtualAccountProvider {
  /** The provider makes a permanent account number only for a customer's BVN. */
  requiresBvn: boolean;
  create(request: {
    /** Ours, unique per player: the provider refuses a second account under it. */
    reference: string;
    email: string;
    fullname: string;
    phoneNumber: string;
    bvn: string | null;
  }): Promise<VirtualAccount>;
  /** The completed transfer under `reference`, or null when the provider has none completed. */
  verifyIncoming(reference: string, hint?: VerifyHint): Promise<IncomingTransfer | null>;
  /** Completed transfers into account numbers since `since`, oldest first (for reconciliation). */
  listIncoming(since: Date, until: Date): Promise<IncomingTransfer[]>;
}

export class InvalidSignatureError extends Error {}
