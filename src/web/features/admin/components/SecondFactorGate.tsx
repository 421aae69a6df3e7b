import { SECOND_FACTOR_MESSAGES } from '@shared/schemas/second-factor.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { PageSpinner } from '@web/components/ui/Spinner.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm, type Validator } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import {
  useConfirmEnrolment,
  useProvedSecondFactor,
  useSecondFactorStatus,
  useStartEnrolment,
  verifySecondFactor,
} from '../api/second-factor.ts';
import {
  settleFreshSecondFactor,
  useFreshSecondFactorRequest,
} from '../lib/fresh-second-factor.ts';
import { LoadError } from './QueryStates.tsx';

/**
 * The console opens only on a session that has proved the operator's second factor: the first
 * time, the operator sets up an authenticator app (QR code, or the secret typed in) and keeps
 * the recovery codes; every later sign-in asks for the app's code. The server refuses the
 * console's routes until then (SECOND_FACTOR_REQUIRED); this screen is where the operator
 * answers it.
 */
export function SecondFactorGate({ children }: { children: ReactNode }) {
  const status = useSecondFactorStatus();
  if (status.isPending) return <PageSpinner label="Checking your sign-in" />;
  if (status.isError)
    return (
      <LoadError
        error={status.error}
        what="your sign-in"
        onRetry={() => void status.refetch()}
        retrying={status.isFetching}
      />
    );
  if (status.data.provedAt)
    return (
      <>
        {children}
        <FreshSecondFactorDialog />
      </>
    );
  return (
    <div className="mx-auto w-full max-w-xl">
      {status.data.enrolled ? <CodePrompt /> : <Enrolment />}
    </div>
  );
}

type CodeValues = { code: string; recovery: boolean };

const codeProblem = (message: string) => ({
  success: false as const,
  error: { issues: [{ path: ['code'], message }] },
});

/**
 * The code as the chosen kind must be: 6 digits from the app (spaces dropped), or a recovery
 * code. Stricter than the server's secondFactorCodeSchema, which takes either kind at once.
 */
const codeCheck: Validator<{ code: string }> = {
  safeParse(input) {
    const { code, recovery } = input as CodeValues;
    const typed = code.trim();
    if (recovery) {
      return typed.length < 6
        ? codeProblem('Enter one of your recovery codes')
        : { success: true, data: { code: typed } };
    }
    const digits = typed.replace(/\s/g, '');
    return /^\d{6}$/.test(digits)
      ? { success: true, data: { code: digits } }
      : codeProblem(SECOND_FACTOR_MESSAGES.enrolCode);
  },
};

/** The code field: 6 digits from the app, or (switched) a recovery code. */
function CodeForm({
  submitLabel,
  allowRecovery,
  onSubmit,
  autoFocus = false,
}: {
  submitLabel: string;
  allowRecovery: boolean;
  onSubmit: (code: string) => Promise<void>;
  autoFocus?: boolean;
}) {
  const form = useSchemaForm<CodeValues, { code: string }>({
    schema: codeCheck,
    initial: { code: '', recovery: false },
    report: 'submit',
  });
  const { recovery } = form.values;
  const [busy, setBusy] = useState(false);

  async function submit({ code }: { code: string }) {
    setBusy(true);
    try {
      await onSubmit(code);
    } catch (failure) {
      form.reset({ code: '', recovery });
      form.setError('code', errorMessage(failure, SECOND_FACTOR_MESSAGES.wrong));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      ref={form.formRef}
      className="flex flex-col gap-4"
      noValidate
      onSubmit={form.handleSubmit((body) => void submit(body))}
    >
      <Field
        label={recovery ? 'Recovery code' : 'Authenticator code'}
        {...form.field('code')}
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        pattern={recovery ? undefined : '[0-9]*'}
        maxLength={recovery ? 40 : 7}
        spellCheck={false}
        autoCapitalize="off"
        autoFocus={autoFocus}
        data-autofocus
        hint={
          recovery
            ? 'Each recovery code works once.'
            : 'The 6-digit code your authenticator app shows for Pluckers.'
        }
        controlClassName="font-mono tracking-widest"
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
        {allowRecovery ? (
          <Button variant="ghost" onClick={() => form.reset({ code: '', recovery: !recovery })}>
            {recovery ? 'Use the authenticator app' : 'Use a recovery code'}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function CodePrompt() {
  const proved = useProvedSecondFactor();
  return (
    <Card className="flex flex-col gap-4">
      <div>
        <h1 className="text-xl font-semibold text-white">Enter your authenticator code</h1>
        <p className="mt-1 text-sm text-white/75">
          The console needs a second step after your password: open your authenticator app and enter
          the code it shows for Pluckers.
        </p>
      </div>
      <CodeForm
        submitLabel="Open the console"
        allowRecovery
        autoFocus
        onSubmit={async (code) => {
          const { data } = await verifySecondFactor(code);
          proved(data.provedAt, data.recoveryCodesLeft);
        }}
      />
    </Card>
  );
}

/** The enrolment QR code, drawn as SVG squares from the otpauth:// URI (qrcode, loaded here). */
function QrCode({ text }: { text: string }) {
  const [path, setPath] = useState<{ d: string; size: number } | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then(({ create }) => {
      const { modules } = create(text, { errorCorrectionLevel: 'M' });
      let d = '';
      for (let row = 0; row < modules.size; row += 1)
        for (let column = 0; column < modules.size; column += 1)
          if (modules.get(row, column)) d += `M${column} ${row}h1v1h-1z`;
      if (live) setPath({ d, size: modules.size });
    });
    return () => {
      live = false;
    };
  }, [text]);
  const quiet = 2;
  return (
    <div className="grid size-52 shrink-0 place-items-center rounded-xl bg-white p-2">
      {path ? (
        <svg
          role="img"
          aria-label="QR code to scan with your authenticator app"
          viewBox={`${-quiet} ${-quiet} ${path.size + 2 * quiet} ${path.size + 2 * quiet}`}
          className="size-full"
          shapeRendering="crispEdges"
        >
          <path d={path.d} fill="#000" />
        </svg>
      ) : (
        <PageSpinner label="Drawing the QR code" />
      )}
    </div>
  );
}

function Enrolment() {
  const start = useStartEnrolment();
  const confirm = useConfirmEnrolment();
  const proved = useProvedSecondFactor();
  const started = useRef(false);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    // Once per visit: each start replaces the secret, so the QR on screen must be the last one.
    if (started.current) return;
    started.current = true;
    start.mutate();
  }, [start]);

  const recoveryCodes = confirm.data?.data.recoveryCodes;
  if (recoveryCodes) {
    const provedAt = confirm.data?.data.provedAt ?? new Date().toISOString();
    return (
      <Card className="flex flex-col gap-4">
        <div>
          <h1 className="text-xl font-semibold text-white">Save your recovery codes</h1>
          <p className="mt-1 text-sm text-white/75">
            If you lose your phone, each of these codes opens the console once instead of the app.
            Keep them somewhere safe, away from your password: this is the only time they are shown.
          </p>
        </div>
        <ul
          aria-label="Recovery codes"
          className="grid grid-cols-1 gap-2 rounded-xl border border-line bg-black/20 p-4 font-mono text-base text-white sm:grid-cols-2"
        >
          {recoveryCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <div className="flex flex-wrap gap-3">
          <Button
            variant="outline"
            onClick={() =>
              void navigator.clipboard
                ?.writeText(recoveryCodes.join('\n'))
                .then(() => toast.success('Recovery codes copied'))
                .catch(() => toast.error('Copying is not allowed here: write the codes down'))
            }
          >
            Copy the codes
          </Button>
        </div>
        <label className="flex items-start gap-3 text-sm text-white/90">
          <input
            type="checkbox"
            className="mt-0.5 size-5 accent-accent"
            checked={saved}
            onChange={(event) => setSaved(event.target.checked)}
          />
          I have saved my recovery codes
        </label>
        <Button disabled={!saved} onClick={() => proved(provedAt, recoveryCodes.length)}>
          Open the console
        </Button>
      </Card>
    );
  }

  const enrolment = start.data?.data;
  return (
    <Card className="flex flex-col gap-5">
      <div>
        <h1 className="text-xl font-semibold text-white">Set up your authenticator app</h1>
        <p className="mt-1 text-sm text-white/75">
          Operators sign in with a password and a code from an authenticator app (Google
          Authenticator, Microsoft Authenticator, 1Password…). Scan the QR code with the app, then
          enter the 6-digit code it shows.
        </p>
      </div>
      {start.isError ? (
        <LoadError
          error={start.error}
          what="the set-up"
          onRetry={() => start.mutate()}
          retrying={start.isPending}
        />
      ) : !enrolment ? (
        <PageSpinner label="Preparing the set-up" />
      ) : (
        <>
          <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
            <QrCode text={enrolment.otpauthUri} />
            <div className="flex min-w-0 flex-col gap-2 text-sm text-white/80">
              <p id="setup-key-label">
                Cannot scan? Add an account by hand with this key (time-based):
              </p>
              <code
                aria-describedby="setup-key-label"
                className="rounded-lg border border-line bg-black/20 px-3 py-2 font-mono text-base break-all text-white select-all"
                data-testid="setup-key"
              >
                {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
              </code>
            </div>
          </div>
          <CodeForm
            submitLabel="Confirm"
            allowRecovery={false}
            onSubmit={async (code) => {
              await confirm.mutateAsync(code);
            }}
          />
        </>
      )}
    </Card>
  );
}

/**
 * Asked when a payout, wallet adjustment, lifted break or settings change answers that it wants
 * a fresh code; the action is sent again once the code is accepted.
 */
function FreshSecondFactorDialog() {
  const open = useFreshSecondFactorRequest();
  const proved = useProvedSecondFactor();
  return (
    <Modal
      open={open}
      title="Confirm it is you"
      description={SECOND_FACTOR_MESSAGES.fresh}
      onClose={() => settleFreshSecondFactor(new Error('cancelled'))}
    >
      {open ? (
        <CodeForm
          submitLabel="Confirm"
          allowRecovery
          onSubmit={async (code) => {
            const { data } = await verifySecondFactor(code);
            proved(data.provedAt, data.recoveryCodesLeft);
            settleFreshSecondFactor();
          }}
        />
      ) : null}
    </Modal>
  );
}
