import { WITHDRAWAL_PROCESSING_TEXT } from '@shared/constants.ts';
import { ERROR_MESSAGES } from '@shared/messages.ts';
import { formatNaira } from '@shared/money.ts';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { errorMessage } from '@web/lib/http.ts';
import type { AppQueryKey } from '@web/lib/query-keys.ts';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { useSession } from '@web/lib/session.ts';
import { toast } from '@web/lib/toast.tsx';
import { useEffect, useRef, useState } from 'react';
import { useBanks } from '../api/get-banks.ts';
import { useRequestWithdrawal } from '../api/request-withdrawal.ts';
import { parseAmount } from '../lib/amount.ts';
import { newAttemptKey } from '../lib/attempt-key.ts';
import { refreshUser, useWalletSettings } from '../lib/session-data.ts';
import { totalDebit, withdrawalValidator } from '../lib/withdraw.ts';
import { WithdrawDialog, type WithdrawStep } from './WithdrawDialog.tsx';

/** docs/product.md#the-api: after a withdrawal the page reloads its data 500 ms later. */
export const RELOAD_AFTER_WITHDRAWAL_MS = 500;

export function WithdrawForm() {
  const user = useSession((session) => session.user);
  const { settings, isError: settingsFailed } = useWalletSettings();
  const queryClient = useQueryClient();
  const withdraw = useRequestWithdrawal();
  const form = useSchemaForm({
    schema: withdrawalValidator(
      settings && user
        ? {
            balance: user.accountBalance,
            fee: settings.withdrawalTransactionFee,
            minimum: settings.minimumPaymentAmount,
            hasBankAccount: user.bankAccount !== null,
          }
        : null,
    ),
    initial: { amount: '' },
    report: 'first',
  });
  const amountField = form.field('amount');
  const [step, setStep] = useState<WithdrawStep>({ kind: 'closed' });
  const [sendError, setSendError] = useState<string | null>(null);
  const banks = useBanks();
  const amountRef = useRef<HTMLInputElement>(null);
  // The key of the attempt in flight or last failed: a retry of it sends the same key, so a
  // request that reached the server before the network dropped is never paid twice.
  const attemptKey = useRef<string | null>(null);
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(reloadTimer.current), []);

  const typed = parseAmount(form.values.amount);
  const fee = settings?.withdrawalTransactionFee;
  const minimum = settings?.minimumPaymentAmount;

  const bankName =
    banks.data?.find((bank) => bank.id === user?.bankAccount?.bankID)?.bankName ??
    (banks.isPending ? '…' : '—');

  /** The form only checks the amount and opens the confirmation; nothing is sent yet. */
  const submit = form.handleSubmit((amount) => {
    setSendError(null);
    setStep({ kind: 'confirm', amount });
  });

  /** The player's second, deliberate tap: the one request that moves money. */
  function onConfirm() {
    if (step.kind !== 'confirm' || withdraw.isPending) return;
    setSendError(null);
    attemptKey.current ??= newAttemptKey();
    withdraw.mutate(
      { amount: step.amount, idempotencyKey: attemptKey.current },
      {
        onSuccess: (result) => {
          attemptKey.current = null;
          form.set('amount', '');
          setStep({ kind: 'receipt', withdrawal: result.data, message: result.message });
          toast.success(result.message);
          reloadTimer.current = setTimeout(() => {
            void queryClient.invalidateQueries({ queryKey: ['withdrawals'] satisfies AppQueryKey });
            // What is left of today's withdrawal cap (the Identity and limits card).
            void queryClient.invalidateQueries({ queryKey: ['kyc'] satisfies AppQueryKey });
            void refreshUser();
          }, RELOAD_AFTER_WITHDRAWAL_MS);
        },
        onError: (caught) => {
          const message = errorMessage(caught, ERROR_MESSAGES.generic);
          setSendError(message);
          toast.error(message);
        },
      },
    );
  }

  function closeDialog() {
    if (withdraw.isPending) return;
    const wasReceipt = step.kind === 'receipt';
    setStep({ kind: 'closed' });
    // Back on the form: after a receipt the amount is cleared, so the player starts afresh.
    if (!wasReceipt) amountRef.current?.focus();
  }

  return (
    <section
      aria-labelledby="withdraw-title"
      className="rounded-2xl border border-line bg-card p-5"
    >
      <h2 id="withdraw-title" className="text-lg font-bold">
        Withdraw to your bank
      </h2>
      <p className="mt-1 mb-5 text-sm text-muted">{WITHDRAWAL_PROCESSING_TEXT}</p>
      <form
        ref={form.formRef}
        noValidate
        onSubmit={(event) => {
          if (withdraw.isPending || !settings || !user) event.preventDefault();
          else submit(event);
        }}
        className="flex flex-col gap-5"
        aria-labelledby="withdraw-title"
      >
        <Field
          ref={amountRef}
          label="Amount to withdraw (₦)"
          inputMode="decimal"
          autoComplete="off"
          placeholder="e.g. 5,000"
          {...amountField}
          onChange={(event) => {
            amountField.onChange(event);
            // A different amount is a new attempt.
            attemptKey.current = null;
          }}
        />
        <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
          <div className="rounded-xl bg-card-raised px-3 py-2.5">
            <dt className="text-xs text-muted">Minimum</dt>
            <dd className="mt-0.5 font-bold">
              {minimum === undefined ? '…' : formatNaira(minimum)}
            </dd>
          </div>
          <div className="rounded-xl bg-card-raised px-3 py-2.5">
            <dt className="text-xs text-muted">Transaction fee</dt>
            <dd className="mt-0.5 font-bold">{fee === undefined ? '…' : formatNaira(fee)}</dd>
          </div>
          {/* Neutral until there is an amount; then the wallet's yellow, never alarm red. */}
          <div
            className={`col-span-2 rounded-xl border px-3 py-2.5 sm:col-span-1 ${typed > 0 ? 'border-wallet/40 bg-wallet/5' : 'border-transparent bg-card-raised'}`}
          >
            <dt className="text-xs text-muted">Total to be debited</dt>
            <dd className={`mt-0.5 font-bold ${typed > 0 ? 'text-wallet' : ''}`} aria-live="polite">
              {typed > 0 && fee !== undefined ? formatNaira(totalDebit(typed, fee)) : '—'}
            </dd>
          </div>
        </dl>
        {settingsFailed && !settings ? (
          <p role="alert" className="text-sm text-danger">
            {ERROR_MESSAGES.genericOops}: we could not load the fee. Reload the page to try again.
          </p>
        ) : null}
        {user && !user.bankAccount ? (
          <p className="rounded-xl border border-wallet/30 bg-wallet/5 px-3 py-2.5 text-sm text-white/85">
            Add the bank account your money goes to{' '}
            <a href="#bank-account" className="font-semibold text-wallet underline">
              below
            </a>{' '}
            before you withdraw.
          </p>
        ) : null}
        <Button
          type="submit"
          variant="wallet"
          loading={withdraw.isPending}
          disabled={!settings}
          className="w-full"
        >
          {typed > 0 ? `Withdraw ${formatNaira(typed)}` : 'Withdraw'}
        </Button>
        <p className="-mt-2 text-center text-xs text-muted">
          You check the details before anything leaves your wallet.
        </p>
      </form>
      {settings && user?.bankAccount ? (
        <WithdrawDialog
          step={step}
          fee={settings.withdrawalTransactionFee}
          balance={user.accountBalance}
          account={{
            bankName,
            accountName: user.bankAccount.accountName,
            accountNumber: user.bankAccount.accountNumber,
          }}
          sending={withdraw.isPending}
          error={sendError}
          onConfirm={onConfirm}
          onClose={closeDialog}
        />
      ) : null}
    </section>
  );
}
