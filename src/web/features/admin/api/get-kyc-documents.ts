import type { Envelope } from '@shared/schemas/common.ts';
import type { AdminKycDocument } from '@shared/schemas/kyc.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';

export type KycDocumentStatus = AdminKycDocument['status'];

/** GET /admin/kyc/documents?status=: identity documents, pending oldest first. */
export const getKycDocuments = (status: KycDocumentStatus) =>
  http
    .get<Envelope<AdminKycDocument[]>>('/admin/kyc/documents', { query: { status } })
    .then((body) => body.data);

export const kycDocumentsQueryOptions = (status: KycDocumentStatus) =>
  queryOptions({
    queryKey: ['admin', 'kyc-documents', status] satisfies AppQueryKey,
    queryFn: () => getKycDocuments(status),
  });

export function useKycDocuments(status: KycDocumentStatus) {
  return useQuery(kycDocumentsQueryOptions(status));
}
