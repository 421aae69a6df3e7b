import {
  KYC_DOCUMENT_LABELS,
  KYC_DOCUMENT_TYPES,
  KYC_MESSAGES,
  type KycDocumentType,
} from '@shared/kyc.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useUploadKycDocument } from '../api/upload-kyc-document.ts';

const MAX_BYTES = 5 * 1024 * 1024;
const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp'];

/** Tier 3: a photo or scan of one document, for an operator to review. */
export function DocumentUploadForm({ onSubmitted }: { onSubmitted: () => void }) {
  const upload = useUploadKycDocument();
  const [documentType, setDocumentType] = useState<KycDocumentType>('national_id');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const fileId = useId();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (upload.isPending) return;
    // The server checks again (by the bytes); this only spares a slow upload bound to fail.
    if (!file || !ACCEPTED.includes(file.type) || file.size > MAX_BYTES || file.size === 0) {
      setError(KYC_MESSAGES.documentImage);
      fileRef.current?.focus();
      return;
    }
    setError(null);
    upload.mutate(
      { documentType, file },
      {
        onSuccess: onSubmitted,
        onError: (caught) => setError(errorMessage(caught, KYC_MESSAGES.documentImage)),
      },
    );
  }

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="flex flex-col gap-4"
      aria-label="Upload a document"
    >
      <Field
        as="select"
        label="Document"
        value={documentType}
        onChange={(event) => setDocumentType(event.target.value as KycDocumentType)}
        data-autofocus
      >
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
          ref={fileRef}
          id={fileId}
          type="file"
          accept={ACCEPTED.join(',')}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${fileId}-hint`}
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
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
