import type { Envelope } from '@shared/schemas/common.ts';
import type {
  SecondFactorConfirmed,
  SecondFactorEnrolment,
  SecondFactorProved,
  SecondFactorStatus,
} from '@shared/schemas/second-factor.ts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

const statusKey = ['second-factor'] satisfies AppQueryKey;

/** GET /admin/second-factor: enrolled or not, and whether this session has proved it. */
export const secondFactorStatusQuery = queryOptions({
  queryKey: statusKey,
  queryFn: () => http.get<Envelope<SecondFactorStatus>>('/admin/second-factor'),
  select: (body) => body.data,
  staleTime: Number.POSITIVE_INFINITY,
});

export function useSecondFactorStatus() {
  return useQuery(secondFactorStatusQuery);
}

/** POST /admin/second-factor/enrolment: a new secret and its otpauth URI (before confirming). */
export const startEnrolment = () =>
  http.post<Envelope<SecondFactorEnrolment>>('/admin/second-factor/enrolment');

export function useStartEnrolment() {
  return useMutation({ mutationFn: startEnrolment });
}

/** POST /admin/second-factor/enrolment/confirm {code}: the recovery codes, shown this once. */
export const confirmEnrolment = (code: string) =>
  http.post<Envelope<SecondFactorConfirmed>>('/admin/second-factor/enrolment/confirm', { code });

export function useConfirmEnrolment() {
  return useMutation({ mutationFn: confirmEnrolment });
}

/** POST /admin/second-factor/verify {code}: the authenticator's code or a recovery code. */
export const verifySecondFactor = (code: string) =>
  http.post<Envelope<SecondFactorProved>>('/admin/second-factor/verify', { code });

/** Marks the session proved in the cache once the server has said so. */
export function useProvedSecondFactor() {
  const queryClient = useQueryClient();
  return (provedAt: string, recoveryCodesLeft?: number) =>
    queryClient.setQueryData(statusKey, (old: Envelope<SecondFactorStatus> | undefined) => ({
      data: {
        enrolled: true,
        provedAt,
        recoveryCodesLeft: recoveryCodesLeft ?? old?.data.recoveryCodesLeft ?? 0,
      },
    }));
}
