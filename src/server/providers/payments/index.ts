import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createPaystackProvider } from './paystack.ts';
import { createSandboxProvider } from './sandbox.ts';
import { createTransactPayProvider } from './transactpay.ts';
import type { PaymentMethod, PaymentProvider } from './types.ts';

export interface PaymentProviders {
  byMethod: Record<PaymentMethod, PaymentProvider>;
  /** Payouts (bank resolution and transfers) go through Paystack, or its sandbox. */
  payouts: PaymentProvider;
}

/** Live adapters where credentials are configured; the built-in sandbox otherwise. */
export function createPaymentProviders(
  config: AppConfig,
  db: Database,
  sandboxSecret: Uint8Array,
): PaymentProviders {
  const sandbox = (method: PaymentMethod) =>
    createSandboxProvider({ method, db, publicUrl: config.publicUrl, secret: sandboxSecret });
  const paystack = config.paystack ? createPaystackProvider(config.paystack) : sandbox('paystack');
  const transactpay = config.transactpay
    ? createTransactPayProvider(config.transactpay)
    : sandbox('transactpay');
  return { byMethod: { paystack, transactpay }, payouts: paystack };
}
