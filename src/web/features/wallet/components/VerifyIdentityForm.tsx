import { KYC_MESSAGES } from '@shared/kyc.ts';
import { type KycVerifyBody, kycVerifyBodySchema } from '@shared/schemas/kyc.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { type FormEvent, useRef, useState } from 'react';
import { useVerifyIdentity } from '../api/verify-identity.ts';

type FieldName = keyof KycVerifyBody;

/**
 * The BVN/NIN form: checked with the server's own schema first, then sent. The number is only
 * ever held in this form's state: nothing is kept in the browser afterwards.
 */
export function VerifyIdentityForm({ onVerified }: { onVerified: (name: string) => void }) {
  const verify = useVerifyIdentity();
  const [idType, setIdType] = useState<'BVN' | 'NIN'>('NIN');
  const [idNumber, setIdNumber] = useState('');
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const numberRef = useRef<HTMLInputElement>(null);
  const dateRef = useRef<HTMLInputElement>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (verify.isPending) return;
    const parsed = kycVerifyBodySchema.safeParse({ idType, idNumber, dateOfBirth });
    if (!parsed.success) {
      const next: Partial<Record<FieldName, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as FieldName] ??= issue.message;
      setErrors(next);
      (next.idNumber ? numberRef : dateRef).current?.focus();
      return;
    }
    setErrors({});
    setRefusal(null);
    verify.mutate(parsed.data, {
      onSuccess: (result) => onVerified(result.data.verifiedName ?? ''),
      onError: (error) => setRefusal(errorMessage(error, KYC_MESSAGES.providerDown)),
    });
  }

  const label =
    idType === 'BVN' ? 'Bank Verification Number (BVN)' : 'National Identity Number (NIN)';
  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="flex flex-col gap-4"
      aria-label="Verify your identity"
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-white/90">Verify with</legend>
        <div className="grid grid-cols-2 gap-2">
          {(['NIN', 'BVN'] as const).map((type) => (
            <label
              key={type}
              className="flex min-h-12 cursor-pointer items-center justify-center gap-2 rounded-xl border border-line bg-card-raised px-3 text-base font-semibold has-[:checked]:border-accent has-[:checked]:text-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent"
            >
              <input
                type="radio"
                name="idType"
                value={type}
                checked={idType === type}
                onChange={() => setIdType(type)}
                className="size-4 accent-accent"
                data-autofocus={type === 'NIN' ? true : undefined}
              />
              {type}
            </label>
          ))}
        </div>
      </fieldset>
      <Field
        ref={numberRef}
        name="idNumber"
        label={label}
        inputMode="numeric"
        autoComplete="off"
        maxLength={11}
        hint="11 digits. We keep only its last four digits and a one-way fingerprint."
        value={idNumber}
        error={errors.idNumber}
        onChange={(event) => setIdNumber(event.target.value.replace(/\D/g, ''))}
      />
      <Field
        ref={dateRef}
        name="dateOfBirth"
        type="date"
        label="Date of birth"
        autoComplete="bday"
        hint="As registered with your BVN or NIN."
        value={dateOfBirth}
        error={errors.dateOfBirth}
        onChange={(event) => setDateOfBirth(event.target.value)}
      />
      {refusal ? (
        <p
          role="alert"
          className="rounded-xl border border-danger/50 bg-danger/10 p-3 text-sm text-white"
        >
          {refusal}
        </p>
      ) : null}
      <Button type="submit" loading={verify.isPending}>
        {verify.isPending ? 'Checking…' : 'Verify'}
      </Button>
      <p className="text-xs text-muted">
        Your name and date of birth are checked with the national records through our identity
        provider. The name on your Pluckers account must match.
      </p>
    </form>
  );
}
