import type { ApprovedWithdrawal } from '@shared/schemas/admin.ts';
import type { Envelope } from '@shared/schemas/common.ts';
import type { Withdrawal } from '@shared/schemas/wallet.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import { withFreshSecondFactor } from '../lib/fresh-second-factor.ts';

/**
 * POST /admin/withdrawals/:id/approve: without a reference the provider's transfer pays it;
 * with one the operator says it was paid by hand. A withdrawal held for review needs the
 * operator's review note (the server answers 400 without one).
 */
export const approveWithdrawal = ({
  id,
  paidReference,
  reviewNote,
}: {
  id: string;
  paidReference?: string;
  reviewNote?: string;
}) =>
  http.post<Envelope<ApprovedWithdrawal>>(`/admin/withdrawals/${encodeURIComponent(id)}/approve`, {
    ...(paidReference ? { paidReference } : {}),
    ...(reviewNote ? { reviewNote } : {}),
  });

/** POST /admin/withdrawals/:id/reject {reason}: amount and fee go back to the wallet. */
export const rejectWithdrawal = ({ id, reason }: { id: string; reason: string }) =>
  http.post<Envelope<Withdrawal>>(`/admin/withdrawals/${encodeURIComponent(id)}/reject`, {
    reason,
  });

function useRefreshAfterDecision() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({
      queryKey: ['admin', 'withdrawals'] satisfies AppQueryKey,
    });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'users'] satisfies AppQueryKey });
  };
}

/** Asks for a fresh authenticator code when the server wants one, then sends it again. */
const approveWithdrawalConfirmed = withFreshSecondFactor(approveWithdrawal);

export function useApproveWithdrawal() {
  const refresh = useRefreshAfterDecision();
  return useMutation({ mutationFn: approveWithdrawalConfirmed, onSettled: refresh });
}

export function useRejectWithdrawal() {
  const refresh = useRefreshAfterDecision();
  return useMutation({ mutationFn: rejectWithdrawal, onSettled: refresh });
}
