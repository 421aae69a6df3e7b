import type { Envelope } from '@shared/schemas/common.ts';
import type { PaymentMethod, TopUpCheckout } from '@shared/schemas/wallet.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUrl } from '@web/lib/api-origin.ts';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export interface TopUpInput {
  method: PaymentMethod;
  amount: number;
}

/** docs/product.md#the-api POST /payment/{method}: creates a pending payment and returns its checkout URL. */
export const startTopUp = ({ method, amount }: TopUpInput) =>
  http
    .post<Envelope<TopUpCheckout>>(`/payment/${method}`, { amount })
    // The sandbox checkout is a path on the API's server.
    .then((body) => ({ ...body.data, paymentUrl: apiUrl(body.data.paymentUrl) }));

export function useStartTopUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startTopUp,
    // The new payment shows in the history as pending straight away.
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: ['payments'] satisfies AppQueryKey }),
  });
}
