import type { Envelope } from '@shared/schemas/common.ts';
import type { DrawProofResponse } from '@shared/schemas/games.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { adminKeys } from './keys.ts';

/** GET /game/:id/draw: the public proof; seed and winners once the draw has run. */
export const getDrawProof = (id: string) =>
  http
    .get<Envelope<DrawProofResponse>>(`/game/${encodeURIComponent(id)}/draw`)
    .then((body) => body.data);

export const drawProofQueryOptions = (id: string) =>
  queryOptions({ queryKey: adminKeys.draw(id), queryFn: () => getDrawProof(id) });

export function useDrawProof(id: string, enabled: boolean) {
  return useQuery({ ...drawProofQueryOptions(id), enabled });
}
