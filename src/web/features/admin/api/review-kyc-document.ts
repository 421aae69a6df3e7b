import type { Envelope } from '@shared/schemas/common.ts';
import type { AdminKycDocument } from '@shared/schemas/kyc.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export interface KycReviewInput {
  id: string;
  decision: 'approve' | 'reject';
  reason?: string;
}

/** POST /admin/kyc/documents/:id/review: approve (tier 3) or reject with a reason; audited. */
export const reviewKycDocument = ({ id, ...body }: KycReviewInput) =>
  http.post<Envelope<AdminKycDocument>>(
    `/admin/kyc/documents/${encodeURIComponent(id)}/review`,
    body,
  );

export function useReviewKycDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewKycDocument,
    onSettled: () => {
      void queryClient.invalidateQueries({
        queryKey: ['admin', 'kyc-documents'] satisfies AppQueryKey,
      });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'users'] satisfies AppQueryKey });
    },
  });
}
