import { ERROR_MESSAGES } from '@shared/messages.ts';
import { errorMessage } from '@web/lib/http.ts';
import { requestStepUpCode } from '@web/lib/step-up.ts';
import { toast } from '@web/lib/toast.tsx';
import { type Ref, useState } from 'react';
import { Button } from './Button.tsx';
import { Field } from './Field.tsx';

export const STEP_UP_TEXTS = {
  passwordLabel: 'Current password',
  codeLabel: 'Code from your e-mail',
  sendCode: 'E-mail me a code',
  codeHint: 'We e-mail a 6-digit code to your current address to confirm it is you.',
} as const;

/**
 * The owner's proof for a sensitive change: the current password, or (an account without one)
 * a code e-mailed to the current address, with the button that sends it.
 */
export function StepUpField({
  hasSetPassword,
  value,
  onChange,
  error,
  hint,
  ref,
  name,
}: {
  hasSetPassword: boolean;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  /** Why the proof is asked for here (shown under the password field). */
  hint?: string;
  /** The password or code input, for moving the focus to it on an error. */
  ref?: Ref<HTMLInputElement>;
  /** The input's name, for a form that finds its invalid field by name. */
  name?: string;
}) {
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);

  if (hasSetPassword) {
    return (
      <Field
        ref={ref}
        name={name}
        label={STEP_UP_TEXTS.passwordLabel}
        hint={hint}
        type="password"
        autoComplete="current-password"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        error={error}
      />
    );
  }

  async function send() {
    setSending(true);
    try {
      const result = await requestStepUpCode();
      setSent(true);
      toast.success(result.message);
    } catch (caught) {
      toast.error(errorMessage(caught, ERROR_MESSAGES.generic));
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <Field
        ref={ref}
        name={name}
        label={STEP_UP_TEXTS.codeLabel}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value={value}
        onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, 6))}
        error={error}
        hint={sent ? undefined : STEP_UP_TEXTS.codeHint}
      />
      <Button
        variant="outline"
        onClick={() => void send()}
        loading={sending}
        className="self-start"
      >
        {sent ? 'Send another code' : STEP_UP_TEXTS.sendCode}
      </Button>
    </div>
  );
}
