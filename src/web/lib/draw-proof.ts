import type { DrawProofResponse } from '@shared/schemas/games.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { pollEvery } from './data-saver.ts';
import { http } from './http.ts';
import type { AppQueryKey } from './query-keys.ts';

/**
 * GET /game/:id/draw: the public proof, one fetch and one cache entry for the game page's Fair
 * draw panel and the console's draw section (commitment; from the close the seal and beacon round;
 * after the draw seed, entries, winners and log records).
 */
export const getDrawProof = (gameId: string) =>
  http
    .get<{ data: DrawProofResponse }>(`/game/${encodeURIComponent(gameId)}/draw`)
    .then((body) => body.data);

export const drawProofQueryOptions = (gameId: string) =>
  queryOptions({
    queryKey: ['games', 'draw', gameId] satisfies AppQueryKey,
    queryFn: () => getDrawProof(gameId),
    // A finished draw never changes; a closed game's proof is polled until its draw has run.
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: (query) => (query.state.data?.status === 'CLOSED' ? pollEvery(5_000) : false),
  });

export function useDrawProof(gameId: string, enabled: boolean) {
  return useQuery({ ...drawProofQueryOptions(gameId), enabled });
}
