import { type BankTransferAccount, bankTransferBvnSchema } from '@shared/schemas/wallet.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { Spinner } from '@web/components/ui/Spinner.tsx';
import { apiUrl } from '@web/lib/api-origin.ts';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import {
  useBankTransferAccount,
  useCreateBankTransferAccount,
} from '../api/bank-transfer-account.ts';

const COULD_NOT_OPEN = 'We could not get your account number. Please try again shortly.';

/**
 * The account number, bank and name, with a button that copies the number. In the sandbox no
 * bank can reach it: a link opens the sandbox's page that makes a test transfer arrive.
 */
function AccountDetails({
  account,
  sandbox,
}: {
  account: NonNullable<BankTransferAccount['account']>;
  sandbox: boolean;
}) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(account.accountNumber);
      setCopied(true);
      toast.success('Account number copied');
    } catch {
      toast.error('Copying is blocked here: select the number and copy it yourself.');
    }
  }
  return (
    <div className="mt-4 flex flex-col gap-4">
      <div className="rounded-xl border border-line bg-card-raised p-4 text-sm">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <dl>
            <div>
              <dt className="text-xs text-muted">Account number</dt>
              <dd className="font-mono text-2xl font-bold tracking-wider select-all">
                {account.accountNumber}
              </dd>
            </div>
          </dl>
          {/* The name starts with the words on the button, so a voice command saying them works. */}
          <Button variant="outline" onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
            <span className="sr-only"> the account number</span>
          </Button>
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-3">
          <div>
            <dt className="text-xs text-muted">Bank</dt>
            <dd className="font-semibold break-words">{account.bankName}</dd>
          </div>
          <div>
            <dt className="text-xs text-muted">Account name</dt>
            <dd className="font-semibold break-words">{account.accountName}</dd>
          </div>
        </dl>
      </div>
      <p className="text-sm text-muted">
        Send any amount from your bank app to this account. Transfers usually arrive within a
        minute, and we tell you when the money is in your wallet.
      </p>
      {sandbox ? (
        <p className="rounded-xl border border-wallet/50 bg-wallet/10 p-3 text-sm">
          Sandbox: no bank sends money here.{' '}
          <a
            href={apiUrl(
              `/api/v1/payment/sandbox/transfer?account=${encodeURIComponent(account.accountNumber)}`,
            )}
            target="_blank"
            rel="noopener"
            className="font-semibold text-accent underline"
          >
            Send a test transfer
          </a>
        </p>
      ) : null}
    </div>
  );
}

/** Where the provider needs a BVN: the player types it, and it goes to the provider only. */
function BvnForm() {
  const create = useCreateBankTransferAccount();
  const form = useSchemaForm({
    schema: bankTransferBvnSchema,
    initial: { bvn: '' },
    report: 'submit',
  });
  const submit = form.handleSubmit((body) =>
    create.mutate(body, {
      onError: (error) => form.setError('bvn', errorMessage(error, COULD_NOT_OPEN)),
    }),
  );
  return (
    <form
      ref={form.formRef}
      noValidate
      onSubmit={(event) => {
        if (create.isPending) event.preventDefault();
        else submit(event);
      }}
      className="mt-4 flex flex-col gap-4"
      aria-label="Get my account number"
    >
      <Field
        label="Bank Verification Number (BVN)"
        inputMode="numeric"
        autoComplete="off"
        maxLength={11}
        hint="The bank needs it to open an account number in your name. We do not keep it."
        {...form.field('bvn')}
        onChange={(event) => form.set('bvn', event.target.value.replace(/\D/g, ''))}
      />
      <Button type="submit" loading={create.isPending} className="self-start">
        Get my account number
      </Button>
    </form>
  );
}

function GetAccountButton() {
  const create = useCreateBankTransferAccount();
  const [refusal, setRefusal] = useState<string | null>(null);
  return (
    <div className="mt-4 flex flex-col gap-3">
      <Button
        loading={create.isPending}
        className="self-start"
        onClick={() => {
          setRefusal(null);
          create.mutate(
            {},
            { onError: (error) => setRefusal(errorMessage(error, COULD_NOT_OPEN)) },
          );
        }}
      >
        Get my account number
      </Button>
      {refusal ? (
        <p role="alert" className="rounded-xl border border-danger/50 bg-danger/10 p-3 text-sm">
          {refusal}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Top up by bank transfer: the player's own account number (a Paystack dedicated virtual account
 * or a Flutterwave virtual account, as the operator picked), made on request. Nothing shows
 * where the server offers no such accounts. `identityHref`: where Verify your identity is (the
 * wallet page's card; from another page, the wallet page's).
 */
export function BankTransferCard({ identityHref = '#identity' }: { identityHref?: string }) {
  const query = useBankTransferAccount();
  const data = query.data;
  if (query.isError || (data && !data.available)) return null;
  return (
    <section
      id="bank-transfer"
      aria-labelledby="bank-transfer-title"
      aria-busy={query.isPending || undefined}
      className="scroll-mt-24 rounded-2xl border border-line bg-card p-5"
    >
      <h2 id="bank-transfer-title" className="text-lg font-bold">
        Top up by bank transfer
      </h2>
      {!data ? (
        <div className="mt-4">
          <Spinner label="Loading your account number" />
        </div>
      ) : data.account ? (
        <AccountDetails account={data.account} sandbox={data.mode === 'sandbox'} />
      ) : (
        <>
          <p className="mt-2 text-sm text-muted">
            Get an account number of your own: whatever you send to it from any bank app lands in
            your wallet.
          </p>
          {data.requiresKycTier ? (
            <p className="mt-4 rounded-xl border border-line bg-card-raised p-3 text-sm">
              To get an account number, verify your identity (KYC tier {data.requiresKycTier})
              first: the bank needs your BVN to open it.{' '}
              <a href={identityHref} className="font-semibold text-accent underline">
                Verify your identity
              </a>
            </p>
          ) : data.needsBvn ? (
            <BvnForm />
          ) : (
            <GetAccountButton />
          )}
        </>
      )}
    </section>
  );
}
