import { PAYMENT_METHODS, type PaymentMode } from '../../../shared/schemas/wallet.ts';
import type { AppConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createFlutterwaveProvider } from './flutterwave.ts';
import { createPaystackProvider } from './paystack.ts';
import { createSandboxProvider } from './sandbox.ts';
import { createTransactPayProvider } from './transactpay.ts';
import type { PaymentMethod, PaymentProvider } from './types.ts';

export interface PaymentProviders {
  /** The server-wide switch (config `paymentsSandbox`): every method runs in the sandbox. */
  sandbox: boolean;
  /** Only the available methods: a method without credentials has no provider at all. */
  byMethod: Partial<Record<PaymentMethod, PaymentProvider>>;
  /** Payouts (bank resolution and transfers) go through Paystack, or its sandbox; null when neither. */
  payouts: PaymentProvider | null;
}

/**
 * With the sandbox on, every method is the built-in sandbox; otherwise only the methods with
 * credentials exist. Never a mix: a sandboxed method next to a live payout provider would let
 * anyone pay with test money and withdraw real money.
 */
export function createPaymentProviders(
  config: AppConfig,
  db: Database,
  sandboxSecret: Uint8Array,
): PaymentProviders {
  if (config.paymentsSandbox) {
    const sandbox = (method: PaymentMethod) =>
      createSandboxProvider({ method, db, publicUrl: config.publicUrl, secret: sandboxSecret });
    const paystack = sandbox('paystack');
    return {
      sandbox: true,
      byMethod: {
        paystack,
        transactpay: sandbox('transactpay'),
        flutterwave: sandbox('flutterwave'),
      },
      payouts: paystack,
    };
  }
  const paystack = config.paystack ? createPaystackProvider(config.paystack) : undefined;
  const transactpay = config.transactpay
    ? createTransactPayProvider(config.transactpay)
    : undefined;
  const flutterwave = config.flutterwave
    ? createFlutterwaveProvider(config.flutterwave)
    : undefined;
  return {
    sandbox: false,
    byMethod: { paystack, transactpay, flutterwave },
    payouts: paystack ?? null,
  };
}

export function modeOf(providers: PaymentProviders, method: PaymentMethod): PaymentMode {
  return providers.byMethod[method]?.mode ?? 'unavailable';
}

/** Each method with its mode, in the order the top-up page offers them (TransactPay first). */
export function paymentModes(providers: PaymentProviders) {
  return {
    sandbox: providers.sandbox,
    methods: PAYMENT_METHODS.map((method) => ({ method, mode: modeOf(providers, method) })),
    payouts: providers.payouts?.mode ?? ('unavailable' as const),
  };
}
