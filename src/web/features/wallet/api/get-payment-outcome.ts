import type { Envelope } from '@shared/schemas/common.ts';
import type { TopUpOutcome } from '@shared/schemas/wallet.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** How often a payment still being confirmed is asked about again while its page is open. */
const PENDING_REFRESH_MS = 5_000;

/** GET /payment/status/{reference}: one of my top-ups, in the server's words. */
export const getPaymentOutcome = (reference: string) =>
  http
    .get<Envelope<TopUpOutcome>>(`/payment/status/${encodeURIComponent(reference)}`)
    .then((body) => body.data);

export const paymentOutcomeQueryOptions = (reference: string) =>
  queryOptions({
    queryKey: ['payments', 'status', reference] satisfies AppQueryKey,
    queryFn: () => getPaymentOutcome(reference),
    // A webhook can settle it any moment: the page follows until the answer is final.
    refetchInterval: (query) =>
      query.state.data?.status === 'pending' ? PENDING_REFRESH_MS : false,
  });

/** Nothing is asked without a reference: the page then keeps to its own fixed words. */
export function usePaymentOutcome(reference: string | null) {
  return useQuery({ ...paymentOutcomeQueryOptions(reference ?? ''), enabled: reference !== null });
}
