import type { Envelope } from '@shared/schemas/common.ts';
import type { AdminKycDocument } from '@shared/schemas/kyc.ts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';

export type KycDocumentStatus = AdminKycDocument['status'];

/** Under 'admin', so the console's one invalidation refreshes it too. */
export const kycDocumentKeys = {
  all: ['admin', 'kyc-documents'] as const,
  list: (status: KycDocumentStatus) => ['admin', 'kyc-documents', status] as const,
};

/** GET /admin/kyc/documents?status=: identity documents, pending oldest first. */
export const getKycDocuments = (status: KycDocumentStatus) =>
  http
    .get<Envelope<AdminKycDocument[]>>('/admin/kyc/documents', { query: { status } })
    .then((body) => body.data);

export const kycDocumentsQueryOptions = (status: KycDocumentStatus) =>
  queryOptions({
    queryKey: kycDocumentKeys.list(status),
    queryFn: () => getKycDocuments(status),
  });

export function useKycDocuments(status: KycDocumentStatus) {
  return useQuery(kycDocumentsQueryOptions(status));
}
