import { Field } from '@web/components/ui/Field.tsx';

/** The props an e-mail input takes on every auth form (the phone's e-mail keyboard). */
export const EMAIL_INPUT = { type: 'email', autoComplete: 'email', inputMode: 'email' } as const;

interface Wired {
  name: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  error?: string;
}

/** A new password and its confirmation, as sign-up and the password reset ask for them. */
export function NewPasswordFields({
  labels,
  password,
  confirmPassword,
}: {
  labels: readonly [string, string];
  password: Wired;
  confirmPassword: Wired;
}) {
  return (
    <>
      <Field
        label={labels[0]}
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters"
        {...password}
      />
      <Field label={labels[1]} type="password" autoComplete="new-password" {...confirmPassword} />
    </>
  );
}

/**
 * The six digits of an e-mailed code, as sign-up's modal and /verifyemail ask for them: only
 * digits reach the form (a code pasted with spaces or dashes still fits), large and spaced.
 */
export function VerificationCodeField({
  otp,
  onDigits,
}: {
  otp: Wired;
  onDigits: (digits: string) => void;
}) {
  return (
    <Field
      label="Verification code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      {...otp}
      onChange={(event) => onDigits(event.target.value.replace(/\D/g, ''))}
      className="[&_input]:text-center [&_input]:text-2xl [&_input]:tracking-[0.5em]"
    />
  );
}
