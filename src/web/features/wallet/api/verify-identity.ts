import type { KycStatus, KycVerifyBody } from '@shared/schemas/kyc.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { kycStatusQueryOptions } from './get-kyc-status.ts';

/** POST /kyc/verify: a BVN or NIN check; a refusal (4xx/503) carries the reason. */
export const verifyIdentity = (body: KycVerifyBody) =>
  http.post<{ message: string; data: KycStatus }>('/kyc/verify', body, { timeoutMs: 45_000 });

export function useVerifyIdentity() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyIdentity,
    onSuccess: (result) => queryClient.setQueryData(kycStatusQueryOptions.queryKey, result.data),
    // A refusal is recorded as the last attempt: show it.
    onError: () => void queryClient.invalidateQueries({ queryKey: kycStatusQueryOptions.queryKey }),
  });
}
