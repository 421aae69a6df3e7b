import type { DrawProofResponse } from '@shared/schemas/games.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';

/** GET /game/:id/draw: the public proof (commitment; after the draw seed, entries, winners). */
export const getDrawProof = (gameId: string) =>
  http
    .get<{ data: DrawProofResponse }>(`/game/${encodeURIComponent(gameId)}/draw`)
    .then((body) => body.data);

export const drawProofQueryOptions = (gameId: string) =>
  queryOptions({
    queryKey: ['games', 'draw', gameId],
    queryFn: () => getDrawProof(gameId),
    // A completed draw never changes.
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useDrawProof(gameId: string, enabled: boolean) {
  return useQuery({ ...drawProofQueryOptions(gameId), enabled });
}
