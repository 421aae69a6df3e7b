import type { AdjustmentResult } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import { withFreshSecondFactor } from '../lib/fresh-second-factor.ts';

/** POST /admin/users/:id/adjust {amount (naira, signed), reason}: one balanced transaction. */
export const adjustWallet = ({
  id,
  amount,
  reason,
}: {
  id: string;
  amount: number;
  reason: string;
}) =>
  http.post<Envelope<AdjustmentResult>>(`/admin/users/${encodeURIComponent(id)}/adjust`, {
    amount,
    reason,
  });

/** Asks for a fresh authenticator code when the server wants one, then sends it again. */
const adjustWalletConfirmed = withFreshSecondFactor(adjustWallet);

export function useAdjustWallet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: adjustWalletConfirmed,
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: ['admin', 'users'] satisfies AppQueryKey }),
  });
}
