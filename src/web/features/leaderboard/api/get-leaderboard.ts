import { LEADERBOARD_DEFAULT_PAGE_SIZE } from '@shared/constants.ts';
import type { LeaderboardEntry } from '@shared/schemas/games.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export interface LeaderboardParams {
  /** YYYY-MM-DD */
  dateFrom?: string;
  /** YYYY-MM-DD */
  dateTo?: string;
  pageSize?: number;
  /** Empty means all games. */
  categoryID?: string;
}

/** docs/product.md#the-api: GET /leaderboard with optional dates, pageSize (default 10) and categoryID. */
export const getLeaderboard = (params: LeaderboardParams = {}) =>
  http
    .get<{ data?: LeaderboardEntry[] }>('/leaderboard', {
      query: {
        dateFrom: params.dateFrom,
        dateTo: params.dateTo,
        pageSize: params.pageSize ?? LEADERBOARD_DEFAULT_PAGE_SIZE,
        categoryID: params.categoryID,
      },
    })
    .then((body) => body?.data ?? []);

export const leaderboardQueryOptions = (params: LeaderboardParams = {}) =>
  queryOptions({
    queryKey: ['leaderboard', params] satisfies AppQueryKey,
    queryFn: () => getLeaderboard(params),
  });

export function useLeaderboard(params: LeaderboardParams = {}) {
  return useQuery(leaderboardQueryOptions(params));
}
