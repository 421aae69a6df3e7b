import { KYC_MESSAGES } from '@shared/kyc.ts';
import { kycVerifyBodySchema } from '@shared/schemas/kyc.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { useState } from 'react';
import { useVerifyIdentity } from '../api/verify-identity.ts';

/**
 * The BVN/NIN form: checked with the server's own schema first, then sent. The number is only
 * ever held in this form's state: nothing is kept in the browser afterwards.
 */
export function VerifyIdentityForm({ onVerified }: { onVerified: (name: string) => void }) {
  const verify = useVerifyIdentity();
  const form = useSchemaForm({
    schema: kycVerifyBodySchema,
    initial: { idType: 'NIN' as 'BVN' | 'NIN', idNumber: '', dateOfBirth: '' },
    report: 'submit',
  });
  const { idType } = form.values;
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = form.handleSubmit((body) => {
    setRefusal(null);
    verify.mutate(body, {
      onSuccess: (result) => onVerified(result.data.verifiedName ?? ''),
      onError: (error) => setRefusal(errorMessage(error, KYC_MESSAGES.providerDown)),
    });
  });

  const label =
    idType === 'BVN' ? 'Bank Verification Number (BVN)' : 'National Identity Number (NIN)';
  return (
    <form
      ref={form.formRef}
      noValidate
      onSubmit={(event) => {
        if (verify.isPending) event.preventDefault();
        else submit(event);
      }}
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
                onChange={() => form.set('idType', type)}
                className="size-4 accent-accent"
                data-autofocus={type === 'NIN' ? true : undefined}
              />
              {type}
            </label>
          ))}
        </div>
      </fieldset>
      <Field
        label={label}
        inputMode="numeric"
        autoComplete="off"
        maxLength={11}
        hint="11 digits. We keep only its last four digits and a one-way fingerprint."
        {...form.field('idNumber')}
        onChange={(event) => form.set('idNumber', event.target.value.replace(/\D/g, ''))}
      />
      <Field
        type="date"
        label="Date of birth"
        autoComplete="bday"
        hint="As registered with your BVN or NIN."
        {...form.field('dateOfBirth')}
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
