import type { KycStatus } from '@shared/schemas/kyc.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /kyc: my tier, every tier's caps, my last identity check and my documents. */
export const getKycStatus = () => http.get<{ data: KycStatus }>('/kyc').then((body) => body.data);

export const kycStatusQueryOptions = queryOptions({
  queryKey: ['kyc'] satisfies AppQueryKey,
  queryFn: getKycStatus,
});

export function useKycStatus() {
  return useQuery(kycStatusQueryOptions);
}
