import { ERROR_MESSAGES } from '@shared/messages.ts';
import {
  bankAccountBodySchema,
  STEP_UP_CODE_MESSAGE,
  STEP_UP_PASSWORD_MESSAGE,
} from '@shared/schemas/users.ts';
import { Button, buttonBase, buttonStyles } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { StepUpField } from '@web/components/ui/StepUpField.tsx';
import { ApiError, errorMessage } from '@web/lib/http.ts';
import { useSession } from '@web/lib/session.ts';
import { toast } from '@web/lib/toast.tsx';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useBanks } from '../api/get-banks.ts';
import { useResolvedAccountName } from '../api/resolve-bank-account.ts';
import { useSaveBankAccount } from '../api/save-bank-account.ts';

interface FieldErrors {
  bankID?: string;
  accountNumber?: string;
  proof?: string;
}

export const ACCOUNT_NUMBER_LENGTH = 10;
/** Under the password when replacing a saved account: why it is asked for here. */
export const REPLACE_PROOF_HINT =
  'To keep your winnings safe, changing where withdrawals go needs your password.';

/** The server's refusals of the password or code (wrong, missing, or too many tries). */
function isProofRefusal(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.code === 'PROOF_REFUSED' || error.code === 'TOO_MANY_REQUESTS';
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
  const [bankID, setBankID] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  // Replacing a saved account needs the owner's proof; the first one does not.
  const [proof, setProof] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const resolved = useResolvedAccountName(bankID, accountNumber);
  const bankRef = useRef<HTMLSelectElement>(null);
  const numberRef = useRef<HTMLInputElement>(null);
  const proofRef = useRef<HTMLInputElement>(null);
  const editButtonRef = useRef<HTMLButtonElement>(null);

  const showForm = editing || account === null;
  const bankName = (id: string) => banks.data?.find((bank) => bank.id === id)?.bankName;

  function startEditing() {
    setBankID(account?.bankID ?? '');
    setAccountNumber('');
    setProof('');
    setErrors({});
    setJustSaved(false);
    setEditing(true);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const parsed = bankAccountBodySchema.safeParse({ bankID, accountNumber });
    if (!parsed.success) {
      const next: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FieldErrors;
        next[field] ??= issue.message;
      }
      setErrors(next);
      if (next.bankID) bankRef.current?.focus();
      else numberRef.current?.focus();
      return;
    }
    const replacing =
      account !== null &&
      (account.bankID !== parsed.data.bankID ||
        account.accountNumber !== parsed.data.accountNumber);
    if (replacing && proof === '') {
      setErrors({
        proof: hasSetPassword ? STEP_UP_PASSWORD_MESSAGE : STEP_UP_CODE_MESSAGE,
      });
      proofRef.current?.focus();
      return;
    }
    setErrors({});
    const proven = replacing ? (hasSetPassword ? { currentPassword: proof } : { code: proof }) : {};
    save.mutate(
      { ...parsed.data, ...proven },
      {
        onSuccess: (result) => {
          toast.success(result.message);
          setProof('');
          setEditing(false);
          setJustSaved(true);
          // The form is gone: keep focus on this card's own control.
          requestAnimationFrame(() => editButtonRef.current?.focus());
        },
        onError: (caught) => {
          const message = errorMessage(caught, ERROR_MESSAGES.generic);
          toast.error(message);
          // A refused proof is the proof field's error, not the account number's.
          if (replacing && isProofRefusal(caught)) {
            setErrors({ proof: message });
            proofRef.current?.focus();
          } else {
            setErrors({ accountNumber: message });
            numberRef.current?.focus();
          }
        },
      },
    );
  }

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
          noValidate
          onSubmit={onSubmit}
          className="mt-4 flex flex-col gap-4"
          aria-labelledby="bank-title"
        >
          <p className="text-sm text-muted">
            Withdrawals go only to this account. We check the name on it with your bank.
          </p>
          <Field
            as="select"
            ref={bankRef}
            label="Bank"
            name="bankID"
            value={bankID}
            disabled={banks.isPending}
            onChange={(event) => {
              setBankID(event.target.value);
              setErrors((current) => ({ ...current, bankID: undefined }));
            }}
            error={errors.bankID}
          >
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
            ref={numberRef}
            label="Account number"
            name="accountNumber"
            inputMode="numeric"
            autoComplete="off"
            maxLength={ACCOUNT_NUMBER_LENGTH}
            placeholder="10-digit NUBAN"
            value={accountNumber}
            onChange={(event) => {
              setAccountNumber(
                event.target.value.replace(/\D/g, '').slice(0, ACCOUNT_NUMBER_LENGTH),
              );
              setErrors((current) => ({ ...current, accountNumber: undefined }));
            }}
            error={errors.accountNumber}
            hint={`${accountNumber.length}/${ACCOUNT_NUMBER_LENGTH} digits`}
          />
          <p aria-live="polite" className="-mt-2 min-h-5 text-sm">
            {resolved.isFetching ? (
              <span className="text-muted">Looking up the account name…</span>
            ) : resolved.data ? (
              <span>
                Account name: <strong className="text-vip">{resolved.data.accountName}</strong>
              </span>
            ) : resolved.isError && !errors.accountNumber ? (
              // Once the field shows its own error, the lookup's (often the same text) is not repeated.
              <span className="text-danger">
                {errorMessage(resolved.error, ERROR_MESSAGES.generic)}
              </span>
            ) : null}
          </p>
          {account ? (
            <StepUpField
              ref={proofRef}
              hasSetPassword={hasSetPassword}
              hint={REPLACE_PROOF_HINT}
              value={proof}
              onChange={(value) => {
                setProof(value);
                setErrors((current) => ({ ...current, proof: undefined }));
              }}
              error={errors.proof}
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
