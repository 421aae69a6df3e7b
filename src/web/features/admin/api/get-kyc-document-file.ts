import type { Envelope } from '@shared/schemas/common.ts';
import type { KycDocumentFile } from '@shared/schemas/kyc.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

/**
 * GET /admin/kyc/documents/:id/file: the image as a data: URL (an <img> cannot send the token).
 * Never kept once the viewer closes: no stale time, dropped from the cache straight away.
 */
export const getKycDocumentFile = (id: string) =>
  http
    .get<Envelope<KycDocumentFile>>(`/admin/kyc/documents/${encodeURIComponent(id)}/file`)
    .then((body) => body.data);

export const kycDocumentFileQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['admin', 'kyc-document-file', id] satisfies AppQueryKey,
    queryFn: () => getKycDocumentFile(id),
    gcTime: 0,
  });

export function useKycDocumentFile(id: string | null) {
  return useQuery({ ...kycDocumentFileQueryOptions(id ?? ''), enabled: id !== null });
}
