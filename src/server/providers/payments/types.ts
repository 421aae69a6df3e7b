export type PaymentMethod = 'transactpay' | 'paystack';

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
  status: 'success' | 'pending' | 'failed';
  providerReference: string | null;
  message?: string;
}

export class ProviderError extends Error {}

/** What Pluckers needs from a card/transfer provider; each provider speaks its own API. */
export interface PaymentProvider {
  method: PaymentMethod;
  mode: 'live' | 'sandbox';
  initialise(request: CheckoutRequest): Promise<{ paymentUrl: string }>;
  verify(reference: string): Promise<VerifiedPayment>;
  /**
   * Checks a webhook delivery (signature where the provider signs) and returns the payment
   * reference it is about, or null when it concerns nothing we credit. Throws on a bad signature.
   */
  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): { reference: string; eventKey: string } | null;
  /** The name on a bank account; the sandbox answers with `holderName` (the player's own). */
  resolveAccount(
    accountNumber: string,
    bankCode: string,
    holderName: string,
  ): Promise<{ accountName: string }>;
  transfer(request: TransferRequest): Promise<TransferResult>;
}

export class InvalidSignatureError extends Error {}
