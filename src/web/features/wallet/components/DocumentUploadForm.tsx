import {
  KYC_DOCUMENT_LABELS,
  KYC_DOCUMENT_TYPES,
  KYC_MESSAGES,
  type KycDocumentType,
} from '@shared/kyc.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm, type Validator } from '@web/lib/schema-form.ts';
import { useId } from 'react';
import { useUploadKycDocument } from '../api/upload-kyc-document.ts';

const MAX_BYTES = 5 * 1024 * 1024;
const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp'];

type DocumentValues = { documentType: KycDocumentType; file: File | null };
type DocumentUpload = { documentType: KycDocumentType; file: File };

/**
 * A file the server would take (it checks again, by the bytes): this only spares a slow upload
 * bound to fail. The file is no text field, so the check is a plain one rather than a schema.
 */
const acceptableDocument: Validator<DocumentUpload> = {
  safeParse(input) {
    const { documentType, file } = input as DocumentValues;
    if (!file || !ACCEPTED.includes(file.type) || file.size > MAX_BYTES || file.size === 0) {
      return {
        success: false,
        error: { issues: [{ path: ['file'], message: KYC_MESSAGES.documentImage }] },
      };
    }
    return { success: true, data: { documentType, file } };
  },
};

/** Tier 3: a photo or scan of one document, for an operator to review. */
export function DocumentUploadForm({ onSubmitted }: { onSubmitted: () => void }) {
  const upload = useUploadKycDocument();
  const form = useSchemaForm<DocumentValues, DocumentUpload>({
    schema: acceptableDocument,
    initial: { documentType: 'national_id', file: null },
    report: 'submit',
  });
  const error = form.errors.file;
  const fileId = useId();

  function send(body: DocumentUpload) {
    if (upload.isPending) return;
    upload.mutate(body, {
      onSuccess: onSubmitted,
      onError: (caught) => form.setError('file', errorMessage(caught, KYC_MESSAGES.documentImage)),
    });
  }

  return (
    <form
      ref={form.formRef}
      noValidate
      onSubmit={form.handleSubmit(send)}
      className="flex flex-col gap-4"
      aria-label="Upload a document"
    >
      <Field as="select" label="Document" {...form.field('documentType')} data-autofocus>
        {KYC_DOCUMENT_TYPES.map((type) => (
          <option key={type} value={type}>
            {KYC_DOCUMENT_LABELS[type]}
          </option>
        ))}
      </Field>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={fileId} className="text-sm font-medium text-white/90">
          Photo or scan
        </label>
        <input
          id={fileId}
          name="file"
          type="file"
          accept={ACCEPTED.join(',')}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${fileId}-hint`}
          onChange={(event) => form.set('file', event.target.files?.[0] ?? null)}
          className="min-h-12 w-full rounded-xl border border-line bg-card px-3 py-2.5 text-sm text-white file:mr-3 file:rounded-lg file:border-0 file:bg-accent file:px-3 file:py-1.5 file:font-semibold file:text-black aria-[invalid=true]:border-danger"
        />
        <p id={`${fileId}-hint`} className="text-xs text-muted">
          JPEG, PNG or WebP, at most 5 MB. Only our operators see it.
        </p>
      </div>
      {error ? (
        <p
          role="alert"
          className="rounded-xl border border-danger/50 bg-danger/10 p-3 text-sm text-white"
        >
          {error}
        </p>
      ) : null}
      <Button type="submit" loading={upload.isPending}>
        {upload.isPending ? 'Uploading…' : 'Send for review'}
      </Button>
    </form>
  );
}
