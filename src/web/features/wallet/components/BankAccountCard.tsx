import { ERROR_MESSAGES } from '@shared/messages.ts';
import {
  type BankAccount,
  bankAccountBodySchema,
  STEP_UP_CODE_MESSAGE,
  STEP_UP_PASSWORD_MESSAGE,
} from '@shared/schemas/users.ts';
import { Button, buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { StepUpField } from '@web/components/ui/StepUpField.tsx';
import { ApiError, errorMessage } from '@web/lib/http.ts';
import { useSchemaForm, type Validator } from '@web/lib/schema-form.ts';
import { useSession } from '@web/lib/session.ts';
import { toast } from '@web/lib/toast.tsx';
import { useEffect, useRef, useState } from 'react';
import { useBanks } from '../api/get-banks.ts';
import { useResolvedAccountName } from '../api/resolve-bank-account.ts';
import { useSaveBankAccount } from '../api/save-bank-account.ts';

export const ACCOUNT_NUMBER_LENGTH = 10;
/** Under the password when replacing a saved account: why it is asked for here. */
export const REPLACE_PROOF_HINT =
  'To keep your winnings safe, changing where withdrawals go needs your password.';

/** The server's refusals of the password or code (wrong, missing, or too many tries). */
function isProofRefusal(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.code === 'PROOF_REFUSED' || error.code === 'TOO_MANY_REQUESTS';
}

interface BankAccountForm {
  bankID: string;
  accountNumber: string;
  /** The proof of ownership, sent only when it replaces a saved account (null otherwise). */
  proof: string | null;
}

/** The shared body schema, then the owner's proof when the form would replace `saved`. */
function bankAccountValidator(
  saved: BankAccount | null,
  proofMessage: string,
): Validator<BankAccountForm> {
  return {
    safeParse(input) {
      const { proof, ...body } = input as Record<keyof BankAccountForm, string>;
      const parsed = bankAccountBodySchema.safeParse(body);
      if (!parsed.success) return parsed;
      const replacing =
        saved !== null &&
        (saved.bankID !== parsed.data.bankID || saved.accountNumber !== parsed.data.accountNumber);
      if (replacing && proof === '')
        return { success: false, error: { issues: [{ path: ['proof'], message: proofMessage }] } };
      return { success: true, data: { ...parsed.data, proof: replacing ? proof : null } };
    },
  };
}

/**
 * Where withdrawals go (docs/product.md#the-api GET bank, POST bank-account). The server resolves the name on
 * the account with the bank and the player sees it straight after saving.
 */
export function BankAccountCard() {
  const account = useSession((session) => session.user?.bankAccount ?? null);
  const hasSetPassword = useSession((session) => session.user?.hasSetPassword ?? true);
  const banks = useBanks();
  // docs/product.md#errors names this failure's own text: 'Error getting banks'.
  useEffect(() => {
    if (banks.isError) toast.error(ERROR_MESSAGES.banks, { id: 'banks-error' });
  }, [banks.isError]);
  const save = useSaveBankAccount();
  const [editing, setEditing] = useState(false);
  const [justSaved, setJustSaved] = useState(false);
  const form = useSchemaForm({
    // Replacing a saved account needs the owner's proof; the first one does not.
    schema: bankAccountValidator(
      account,
      hasSetPassword ? STEP_UP_PASSWORD_MESSAGE : STEP_UP_CODE_MESSAGE,
    ),
    initial: { bankID: '', accountNumber: '', proof: '' },
    report: 'submit',
  });
  const { bankID, accountNumber } = form.values;
  const resolved = useResolvedAccountName(bankID, accountNumber);
  const editButtonRef = useRef<HTMLButtonElement>(null);

  const showForm = editing || account === null;
  const bankName = (id: string) => banks.data?.find((bank) => bank.id === id)?.bankName;

  function startEditing() {
    form.reset({ bankID: account?.bankID ?? '', accountNumber: '', proof: '' });
    setJustSaved(false);
    setEditing(true);
  }

  const submit = form.handleSubmit(({ proof, ...body }) => {
    const replacing = proof !== null;
    const proven = replacing ? (hasSetPassword ? { currentPassword: proof } : { code: proof }) : {};
    save.mutate(
      { ...body, ...proven },
      {
        onSuccess: (result) => {
          toast.success(result.message);
          form.set('proof', '');
          setEditing(false);
          setJustSaved(true);
          // The form is gone: keep focus on this card's own control.
          requestAnimationFrame(() => editButtonRef.current?.focus());
        },
        onError: (caught) => {
          const message = errorMessage(caught, ERROR_MESSAGES.generic);
          toast.error(message);
          // A refused proof is the proof field's error, not the account number's.
          form.setError(replacing && isProofRefusal(caught) ? 'proof' : 'accountNumber', message);
        },
      },
    );
  });

  return (
    <section
      id="bank-account"
      aria-labelledby="bank-title"
      className="scroll-mt-24 rounded-2xl border border-line bg-card p-5"
    >
      <h2 id="bank-title" className="text-lg font-bold">
        Bank account
      </h2>
      {account && !showForm ? (
        <div className="mt-4 flex flex-col gap-4">
          <div
            className={`rounded-xl border p-4 ${justSaved ? 'border-vip/50 bg-vip/5' : 'border-line bg-card-raised'}`}
          >
            {justSaved ? (
              <p role="status" className="mb-2 text-sm font-semibold text-vip">
                Saved. Check that this is your name.
              </p>
            ) : null}
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div className="col-span-2">
                <dt className="text-xs text-muted">Account name</dt>
                <dd className="text-base font-bold break-words">{account.accountName}</dd>
              </div>
              <div>
                <dt className="text-xs text-muted">Bank</dt>
                <dd className="font-semibold">
                  {bankName(account.bankID) ?? (banks.isPending ? '…' : '—')}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-muted">Account number</dt>
                <dd className="font-mono font-semibold tracking-wider">{account.accountNumber}</dd>
              </div>
            </dl>
          </div>
          <button
            ref={editButtonRef}
            type="button"
            onClick={startEditing}
            className={`${buttonBase} ${buttonStyles.outline} self-start`}
          >
            Change bank account
          </button>
        </div>
      ) : (
        <form
          ref={form.formRef}
          noValidate
          onSubmit={(event) => {
            if (save.isPending) event.preventDefault();
            else submit(event);
          }}
          className="mt-4 flex flex-col gap-4"
          aria-labelledby="bank-title"
        >
          <p className="text-sm text-muted">
            Withdrawals go only to this account. We check the name on it with your bank.
          </p>
          <Field as="select" label="Bank" disabled={banks.isPending} {...form.field('bankID')}>
            <option value="">
              {banks.isPending
                ? 'Loading banks…'
                : banks.isError
                  ? 'Banks unavailable'
                  : 'Choose your bank'}
            </option>
            {banks.data?.map((bank) => (
              <option key={bank.id} value={bank.id}>
                {bank.bankName}
              </option>
            ))}
          </Field>
          {banks.isError ? (
            <div className="-mt-2 flex flex-wrap items-center gap-3 text-sm">
              <span className="text-danger">{ERROR_MESSAGES.banks}</span>
              <Button
                variant="outline"
                onClick={() => void banks.refetch()}
                className="min-h-9 px-3 py-1"
              >
                Try again
              </Button>
            </div>
          ) : null}
          <Field
            label="Account number"
            inputMode="numeric"
            autoComplete="off"
            maxLength={ACCOUNT_NUMBER_LENGTH}
            placeholder="10-digit NUBAN"
            {...form.field('accountNumber')}
            onChange={(event) =>
              form.set(
                'accountNumber',
                event.target.value.replace(/\D/g, '').slice(0, ACCOUNT_NUMBER_LENGTH),
              )
            }
            hint={`${accountNumber.length}/${ACCOUNT_NUMBER_LENGTH} digits`}
          />
          <p aria-live="polite" className="-mt-2 min-h-5 text-sm">
            {resolved.isFetching ? (
              <span className="text-muted">Looking up the account name…</span>
            ) : resolved.data ? (
              <span>
                Account name: <strong className="text-vip">{resolved.data.accountName}</strong>
              </span>
            ) : resolved.isError && !form.errors.accountNumber ? (
              // Once the field shows its own error, the lookup's (often the same text) is not repeated.
              <span className="text-danger">
                {errorMessage(resolved.error, ERROR_MESSAGES.generic)}
              </span>
            ) : null}
          </p>
          {account ? (
            <StepUpField
              name="proof"
              hasSetPassword={hasSetPassword}
              hint={REPLACE_PROOF_HINT}
              value={form.values.proof}
              onChange={(value) => form.set('proof', value)}
              error={form.errors.proof}
            />
          ) : null}
          <div className="flex flex-wrap gap-3">
            <Button type="submit" loading={save.isPending}>
              {save.isPending ? 'Checking with your bank…' : 'Save bank account'}
            </Button>
            {account ? (
              <Button variant="ghost" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            ) : null}
          </div>
        </form>
      )}
    </section>
  );
}
