import { ERROR_MESSAGES, SIGNUP_MESSAGES } from '@shared/messages.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { LiveFields } from '@web/components/ui/LiveFields.tsx';
import { TextField } from '@web/components/ui/TextField.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { forgotPassword } from '../api/password-reset.ts';
import { AuthShell } from './AuthShell.tsx';

export function ForgotPasswordPage() {
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (!address) {
      setError(SIGNUP_MESSAGES.email);
      return;
    }
    setSubmitting(true);
    try {
      toast.success(await forgotPassword(address));
      navigate(`/resetpassword?email=${encodeURIComponent(address)}`);
    } catch (caught) {
      toast.error(errorMessage(caught, ERROR_MESSAGES.verifyForgotReset));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthShell title="Forgot your password?">
      <p className="mb-5 text-white/80">
        Enter your e-mail and we will send you a 6-digit code to reset it.
      </p>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <LiveFields>
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setError(null);
            }}
            error={error}
          />
        </LiveFields>
        <Button type="submit" loading={submitting} className="w-full">
          Send reset code
        </Button>
      </form>
      <Link
        href="/login"
        className="mt-6 block text-center text-sm font-semibold text-accent hover:underline"
      >
        Back to log in
      </Link>
    </AuthShell>
  );
}
