import { VALIDATION_MESSAGES, WALLET_MESSAGES } from '@shared/messages.ts';
import {
  PAYMENT_METHODS,
  type PaymentMethod,
  type PaymentMethods,
} from '@shared/schemas/wallet.ts';
import type { Validator } from '@web/lib/schema-form.ts';
import { parseAmount } from './amount.ts';

export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'transactpay';

/** The methods this server runs (live or sandbox); every method until the server has said. */
export function availableMethods(modes: PaymentMethods | null): readonly PaymentMethod[] {
  if (!modes) return PAYMENT_METHODS;
  return modes.methods.filter(({ mode }) => mode !== 'unavailable').map(({ method }) => method);
}

/** TransactPay when it is available, else the first available method. */
export function defaultMethod(available: readonly PaymentMethod[]): string {
  return available.includes(DEFAULT_PAYMENT_METHOD) ? DEFAULT_PAYMENT_METHOD : (available[0] ?? '');
}

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  transactpay: 'TransactPay',
  paystack: 'Paystack',
  flutterwave: 'Flutterwave',
};

export interface TopUpErrors {
  amount?: string;
  method?: string;
}

export type TopUpCheck =
  | { ok: true; amount: number; method: PaymentMethod }
  | { ok: false; errors: TopUpErrors };

function isPaymentMethod(value: string): value is PaymentMethod {
  return (PAYMENT_METHODS as readonly string[]).includes(value);
}

/**
 * docs/product.md#validation: the amount must be a non-empty number ('Enter a topup amount'; non-numeric input
 * becomes 0) and a payment method must be chosen ('Select a payment method'). An amount under
 * the minimum of the settings gets the server's own wording, before a round trip.
 */
export function checkTopUp(
  rawAmount: string,
  method: string,
  minimum: number | null | undefined,
): TopUpCheck {
  const errors: TopUpErrors = {};
  const amount = parseAmount(rawAmount);
  if (amount <= 0) errors.amount = VALIDATION_MESSAGES.topupAmount;
  else if (minimum && amount < minimum) errors.amount = WALLET_MESSAGES.minimumTopUp(minimum);
  if (!isPaymentMethod(method)) errors.method = VALIDATION_MESSAGES.paymentMethod;
  if (errors.amount || errors.method || !isPaymentMethod(method)) return { ok: false, errors };
  return { ok: true, amount, method };
}

/** checkTopUp as the schema form's validator, so its messages show on their fields. */
export function topUpValidator(
  minimum: number | null | undefined,
): Validator<{ amount: number; method: PaymentMethod }> {
  return {
    safeParse(input) {
      const { amount, method } = input as { amount: string; method: string };
      const check = checkTopUp(amount, method, minimum);
      if (check.ok) return { success: true, data: { amount: check.amount, method: check.method } };
      const issues = Object.entries(check.errors).flatMap(([name, message]) =>
        message ? [{ path: [name], message }] : [],
      );
      return { success: false, error: { issues } };
    },
  };
}
