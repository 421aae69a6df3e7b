import { ERROR_MESSAGES, RULE_MESSAGES } from '@shared/messages.ts';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm, type Validator } from '@web/lib/schema-form.ts';
import { confirmAge, useSession } from '@web/lib/session.ts';
import { type ReactNode, useId, useRef, useState } from 'react';
import { Button } from './Button.tsx';
import { Modal } from './Modal.tsx';

export const AGE_GATE_TEXTS = {
  title: 'Confirm your age',
  description: 'Pluckers is for players aged 18 or over. Confirm it once to play and top up.',
  checkbox: 'I confirm I am 18 or older',
  unticked: 'Tick the box to confirm you are 18 or older',
} as const;

/** The box must be ticked: a plain check, as the server takes no body to validate. */
const ageTicked: Validator<{ ageConfirmed: true }> = {
  safeParse(input) {
    return (input as { ageConfirmed: boolean }).ageConfirmed
      ? { success: true, data: { ageConfirmed: true } }
      : {
          success: false,
          error: { issues: [{ path: ['ageConfirmed'], message: AGE_GATE_TEXTS.unticked }] },
        };
  },
};

/**
 * Players who signed up without the 18+ box (with Google) are asked once, in a dialog, before
 * their first play, top-up or plan: `ensureAge(action)` runs the action at once for everyone
 * else, and after the confirmation for them. Render `dialog` somewhere in the page.
 */
export function useAgeGate(): { ensureAge: (action: () => void) => void; dialog: ReactNode } {
  const ageConfirmed = useSession((session) => session.user?.ageConfirmed ?? true);
  const pending = useRef<(() => void) | null>(null);
  const [open, setOpen] = useState(false);

  function ensureAge(action: () => void) {
    if (ageConfirmed) {
      action();
      return;
    }
    pending.current = action;
    setOpen(true);
  }

  const close = () => {
    pending.current = null;
    setOpen(false);
  };
  const confirmed = () => {
    const action = pending.current;
    pending.current = null;
    setOpen(false);
    action?.();
  };

  return { ensureAge, dialog: <AgeDialog open={open} onClose={close} onConfirmed={confirmed} /> };
}

function AgeDialog({
  open,
  onClose,
  onConfirmed,
}: {
  open: boolean;
  onClose: () => void;
  onConfirmed: () => void;
}) {
  const form = useSchemaForm({
    schema: ageTicked,
    initial: { ageConfirmed: false },
    report: 'submit',
  });
  const [sending, setSending] = useState(false);
  const checkboxId = useId();
  const errorId = useId();
  const error = form.errors.ageConfirmed;

  async function confirm() {
    setSending(true);
    try {
      await confirmAge();
      onConfirmed();
    } catch (caught) {
      form.setError('ageConfirmed', errorMessage(caught, ERROR_MESSAGES.generic));
    } finally {
      setSending(false);
    }
  }

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={AGE_GATE_TEXTS.title}
      description={AGE_GATE_TEXTS.description}
    >
      <form
        ref={form.formRef}
        noValidate
        onSubmit={form.handleSubmit(() => void confirm())}
        className="flex flex-col gap-4"
      >
        <div>
          {/* The whole row is the checkbox's label: a large target, outlined like a field. */}
          <label
            htmlFor={checkboxId}
            className={`flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border bg-card-raised px-4 py-3 text-sm font-medium has-focus-visible:border-accent ${
              error ? 'border-danger' : 'border-line'
            }`}
          >
            <input
              id={checkboxId}
              data-autofocus
              type="checkbox"
              {...form.checkbox('ageConfirmed')}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              className="size-5 shrink-0 accent-[#00dae4]"
            />
            <span>{AGE_GATE_TEXTS.checkbox}</span>
          </label>
          {error ? (
            <p id={errorId} role="alert" className="mt-1.5 text-sm text-danger">
              {error}
            </p>
          ) : null}
        </div>
        <p className="text-sm text-muted">
          {RULE_MESSAGES.ageConfirmed}. Read the{' '}
          <a
            href="/Terms"
            target="_blank"
            rel="noopener"
            className="font-semibold text-accent underline"
          >
            terms
          </a>
          .
        </p>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={sending}>
            Confirm and continue
          </Button>
        </div>
      </form>
    </Modal>
  );
}
