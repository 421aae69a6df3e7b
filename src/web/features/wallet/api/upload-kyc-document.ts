import type { KycDocumentType } from '@shared/kyc.ts';
import type { KycDocument } from '@shared/schemas/kyc.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '@web/lib/http.ts';
import { kycStatusQueryOptions } from './get-kyc-status.ts';

export interface KycDocumentInput {
  documentType: KycDocumentType;
  file: File;
}

/** POST /kyc/documents?type=: the image as multipart; a phone photo on slow data takes a while. */
export const uploadKycDocument = ({ documentType, file }: KycDocumentInput) => {
  const form = new FormData();
  form.append('file', file);
  return http.post<{ message: string; data: KycDocument }>('/kyc/documents', form, {
    query: { type: documentType },
    timeoutMs: 120_000,
  });
};

export function useUploadKycDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadKycDocument,
    onSettled: () =>
      void queryClient.invalidateQueries({ queryKey: kycStatusQueryOptions.queryKey }),
  });
}
