import type { MessageBody } from '@shared/schemas/common.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export type HoldDecision = 'release' | 'return';

/**
 * POST /admin/held-payments/:reference/release or /return {note}: into the player's wallet (as
 * their deposit limits allow now) or back to the payer; audited.
 */
export const decideHeldPayment = ({
  reference,
  decision,
  note,
}: {
  reference: string;
  decision: HoldDecision;
  note: string;
}) =>
  http.post<MessageBody>(`/admin/held-payments/${encodeURIComponent(reference)}/${decision}`, {
    note,
  });

export function useDecideHeldPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideHeldPayment,
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: ['admin', 'held-payments'] satisfies AppQueryKey,
      }),
  });
}
