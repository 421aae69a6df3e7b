import type { Envelope } from '@shared/schemas/common.ts';
import type { AdminUserKyc } from '@shared/schemas/kyc.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/** GET /admin/kyc/users/:id: a player's tier, verified identity, checks and documents. */
export const getUserKyc = (id: string) =>
  http
    .get<Envelope<AdminUserKyc>>(`/admin/kyc/users/${encodeURIComponent(id)}`)
    .then((body) => body.data);

export const userKycQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'users', 'kyc', id] satisfies AppQueryKey,
    queryFn: () => getUserKyc(id),
  });

export function useUserKyc(id: string) {
  return useQuery(userKycQueryOptions(id));
}
