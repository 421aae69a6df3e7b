import type { SandboxReviewResult } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** POST /admin/sandbox-payments/:reference/review {note}: audited; lifts the payout pause once none is left. */
export const reviewSandboxPayment = ({ reference, note }: { reference: string; note: string }) =>
  http.post<Envelope<SandboxReviewResult>>(
    `/admin/sandbox-payments/${encodeURIComponent(reference)}/review`,
    { note },
  );

export function useReviewSandboxPayment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewSandboxPayment,
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: ['admin', 'sandbox-payments'] satisfies AppQueryKey,
      }),
  });
}
