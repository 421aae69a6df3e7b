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
