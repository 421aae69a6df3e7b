import { ERROR_MESSAGES } from '@shared/messages.ts';
import { resetPasswordSchema } from '@shared/schemas/auth.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { TextField } from '@web/components/ui/TextField.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { resetPassword } from '../api/password-reset.ts';
import { loginEmail } from '../lib/login-email.ts';
import { AuthShell } from './AuthShell.tsx';

type Field = 'otp' | 'password' | 'confirmPassword';

export function ResetPasswordPage() {
  const [, navigate] = useLocation();
  const email = new URLSearchParams(useSearch()).get('email');
  const [values, setValues] = useState({ otp: '', password: '', confirmPassword: '' });
  const [error, setError] = useState<{ field: Field; message: string } | null>(null);
  const [submitting, setSubmitting] = useState(false);

  // docs/product.md#validation: without the email parameter, back to /forgotpassword with 'An error occurred'.
  useEffect(() => {
    if (email) return;
    toast.error(ERROR_MESSAGES.resetNeedsEmail);
    navigate('/forgotpassword', { replace: true });
  }, [email, navigate]);
  if (!email) return null;

  const set = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    if (error?.field === field) setError(null);
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>, address: string) {
    event.preventDefault();
    const parsed = resetPasswordSchema.safeParse({ email: address, ...values });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setError({
        field: (issue?.path[0] ?? 'otp') as Field,
        message: issue?.message ?? ERROR_MESSAGES.verifyForgotReset,
      });
      return;
    }
    setSubmitting(true);
    try {
      toast.success(await resetPassword(parsed.data));
      loginEmail.remember(parsed.data.email);
      navigate('/login', { replace: true });
    } catch (caught) {
      toast.error(errorMessage(caught, ERROR_MESSAGES.verifyForgotReset));
    } finally {
      setSubmitting(false);
    }
  }

  const fieldError = (field: Field) => (error?.field === field ? error.message : null);
  return (
    <AuthShell title="Reset your password">
      <p className="mb-5 text-white/80">
        Enter the code we sent to <strong className="break-all text-white">{email}</strong> and
        choose a new password.
      </p>
      <form
        noValidate
        onSubmit={(event) => void onSubmit(event, email)}
        className="flex flex-col gap-4"
      >
        <TextField
          label="Reset code"
          name="otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={values.otp}
          onChange={set('otp')}
          error={fieldError('otp')}
        />
        <TextField
          label="New password"
          type="password"
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={set('password')}
          error={fieldError('password')}
          hint="At least 8 characters"
        />
        <TextField
          label="Confirm new password"
          type="password"
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={set('confirmPassword')}
          error={fieldError('confirmPassword')}
        />
        <Button type="submit" loading={submitting} className="w-full">
          Reset password
        </Button>
      </form>
      <Link
        href="/ForgotPassword"
        className="mt-6 block text-center text-sm font-semibold text-accent hover:underline"
      >
        Didn't get a code? Send another
      </Link>
    </AuthShell>
  );
}
