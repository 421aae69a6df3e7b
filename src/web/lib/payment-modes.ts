import type { PaymentMethods } from '@shared/schemas/wallet.ts';
import { useSyncExternalStore } from 'react';
import { http } from './http.ts';

/**
 * GET /payment/methods, loaded once when the app starts (public: the sandbox banner shows on
 * every page, signed in or not). Null until it answers, and if it never does: the top-up page
 * then offers every method and the server still refuses the unavailable ones.
 */
let modes: PaymentMethods | null = null;
const listeners = new Set<() => void>();

export const fetchPaymentModes = () =>
  http.get<{ data: PaymentMethods }>('/payment/methods').then((body) => body.data);

export function loadPaymentModes(): Promise<void> {
  return fetchPaymentModes().then(
    (loaded) => {
      modes = loaded;
      for (const listener of listeners) listener();
    },
    () => undefined,
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePaymentModes(): PaymentMethods | null {
  // Null while hydrating: the prerendered pages were built without asking.
  return useSyncExternalStore(
    subscribe,
    () => modes,
    () => null,
  );
}
