import type { PlayExclusion, ResponsiblePlay } from '@shared/schemas/responsible-play.ts';
import { useQuery } from '@tanstack/react-query';
import { http } from './http.ts';
import type { AppQueryKey } from './query-keys.ts';

/**
 * The time-out or self-exclusion the player is on, for every screen that takes money in or
 * plays: they show the break instead of an action the server would refuse. It is the
 * `exclusion` of GET /responsible-play, read under the Responsible play page's own key so that
 * starting a break there updates every screen. A break the server does not show this account
 * (one tied to it by a key it has not proven) is not shown here either: its refusal stays the
 * server's generic one.
 */
export function usePlayBreak(): PlayExclusion | null {
  const { data } = useQuery({
    queryKey: ['responsible-play', 'overview'] satisfies AppQueryKey,
    queryFn: () =>
      http.get<{ data: ResponsiblePlay }>('/responsible-play').then((body) => body.data),
    select: (overview) => overview.exclusion,
  });
  if (!data || data.liftedAt || Date.parse(data.endsAt) <= Date.now()) return null;
  return data;
}
