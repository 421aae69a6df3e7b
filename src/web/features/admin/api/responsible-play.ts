import type { Envelope, MessageBody } from '@shared/schemas/common.ts';
import type { AdminResponsiblePlay } from '@shared/schemas/responsible-play.ts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import { withFreshSecondFactor } from '../lib/fresh-second-factor.ts';

/** GET /admin/users/:id/responsible-play: limits, reminders and every break. */
export const getUserResponsiblePlay = (id: string) =>
  http
    .get<Envelope<AdminResponsiblePlay>>(`/admin/users/${encodeURIComponent(id)}/responsible-play`)
    .then((body) => body.data);

export const userResponsiblePlayQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'users', 'detail', id, 'responsible-play'] satisfies AppQueryKey,
    queryFn: () => getUserResponsiblePlay(id),
  });

export function useUserResponsiblePlay(id: string) {
  return useQuery(userResponsiblePlayQueryOptions(id));
}

/** POST /admin/users/:id/exclusion/lift {reason}: ends a break early; audited. */
export const liftExclusion = ({ id, reason }: { id: string; reason: string }) =>
  http.post<MessageBody>(`/admin/users/${encodeURIComponent(id)}/exclusion/lift`, { reason });

/** Asks for a fresh authenticator code when the server wants one, then sends it again. */
const liftExclusionConfirmed = withFreshSecondFactor(liftExclusion);

export function useLiftExclusion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: liftExclusionConfirmed,
    onSettled: (_result, _error, { id }) =>
      queryClient.invalidateQueries({
        queryKey: ['admin', 'users', 'detail', id, 'responsible-play'] satisfies AppQueryKey,
      }),
  });
}
