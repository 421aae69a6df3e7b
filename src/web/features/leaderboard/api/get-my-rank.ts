import type { LeaderboardRank } from '@shared/schemas/games.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import type { LeaderboardParams } from './get-leaderboard.ts';

type RankParams = Omit<LeaderboardParams, 'pageSize'>;

/** GET /leaderboard/me: the player's own place on the same board (null rank: not on it yet). */
export const getMyRank = (params: RankParams = {}) =>
  http
    .get<{ data: LeaderboardRank }>('/leaderboard/me', {
      query: { dateFrom: params.dateFrom, dateTo: params.dateTo, categoryID: params.categoryID },
    })
    .then((body) => body.data);

export const myRankQueryOptions = (params: RankParams = {}) =>
  queryOptions({
    queryKey: ['leaderboard', 'me', params] satisfies AppQueryKey,
    queryFn: () => getMyRank(params),
  });

export function useMyRank(params: RankParams = {}) {
  return useQuery(myRankQueryOptions(params));
}
