import { API_BASE } from '@shared/constants.ts';
import { loginErrorText } from '@shared/login-errors.ts';
import { ERROR_MESSAGES, SIGNUP_MESSAGES } from '@shared/messages.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { LiveForm } from '@web/components/ui/LiveForm.tsx';
import { apiUrl } from '@web/lib/api-origin.ts';
import { ApiError, errorMessage } from '@web/lib/http.ts';
import { returnPathFrom } from '@web/lib/return-path.ts';
import { requireFilled, useSchemaForm } from '@web/lib/schema-form.ts';
import { setPendingEmail, signIn } from '@web/lib/session.ts';
import { toast } from '@web/lib/toast.tsx';
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { login } from '../api/login.ts';
import { EMAIL_INPUT } from '../lib/credential-fields.tsx';
import { loginEmail } from '../lib/login-email.ts';
import { AuthShell } from './AuthShell.tsx';

export function LoginPage() {
  const [, navigate] = useLocation();
  // Anyone can link to /login?error=…: only the texts of the server's own codes are shown.
  const search = useSearch();
  const bannerError = loginErrorText(new URLSearchParams(search).get('error'));
  // The page that sent the player here (a guard or a 401), only if it is a path of this site.
  const returnTo = returnPathFrom(search);
  // Plain checks keep zod out of the first screen's bundle.
  const form = useSchemaForm({
    schema: requireFilled({ email: SIGNUP_MESSAGES.email, password: SIGNUP_MESSAGES.password }),
    initial: { email: '', password: '' },
  });
  // Filled in after a sign-up or a password reset on this tab: after the first render, which
  // hydrates the prerendered (empty) form.
  const { set } = form;
  // A sign-up's address still waiting for verification: the toast that said so lasts 2 s.
  const [awaitingVerification, setAwaitingVerification] = useState<string | null>(null);
  useEffect(() => {
    const remembered = loginEmail.read();
    if (remembered) set('email', remembered);
    setAwaitingVerification(loginEmail.unverified());
  }, [set]);
  const [submitting, setSubmitting] = useState(false);

  async function submit({ password, ...values }: { email: string; password: string }) {
    const email = values.email.trim();
    setSubmitting(true);
    try {
      const result = await login({ email, password });
      await signIn(result.accessToken, result.user);
      loginEmail.forget();
      navigate(returnTo ?? '/', { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'EMAIL_UNVERIFIED') {
        setPendingEmail(email);
        navigate('/verifyemail');
        return;
      }
      toast.error(errorMessage(error, ERROR_MESSAGES.loginAndResend));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthShell title="Welcome back, Plucker">
      {bannerError ? (
        <div
          role="alert"
          className="mb-5 rounded-xl border border-danger/50 bg-danger/15 px-4 py-3 text-sm text-white"
        >
          {bannerError}
        </div>
      ) : null}
      {awaitingVerification ? (
        <div
          role="status"
          className="mb-5 rounded-xl border border-accent/40 bg-accent/10 px-4 py-3 text-sm text-white"
        >
          Account created. We sent a link and a 6-digit code to{' '}
          <strong className="break-words">{awaitingVerification}</strong>: open the link, or{' '}
          <button
            type="button"
            onClick={() => {
              setPendingEmail(awaitingVerification);
              navigate('/verifyemail');
            }}
            className="font-semibold text-accent underline-offset-2 hover:underline"
          >
            enter the code
          </button>
          , then log in.
        </div>
      ) : null}
      <LiveForm
        form={form}
        onSubmit={form.handleSubmit((values) => void submit(values))}
        className="flex flex-col gap-4"
      >
        <Field label="Email" {...EMAIL_INPUT} {...form.field('email')} />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          {...form.field('password')}
        />
        <Link
          href="/ForgotPassword"
          className="self-end py-2 text-sm font-medium text-accent hover:underline"
        >
          Forgot password?
        </Link>
        <Button type="submit" loading={submitting} className="w-full">
          Log in
        </Button>
      </LiveForm>
      <div className="my-6 flex items-center gap-3 text-xs text-muted" aria-hidden="true">
        <span className="h-px flex-1 bg-line" /> or <span className="h-px flex-1 bg-line" />
      </div>
      <a
        href={apiUrl(`${API_BASE}/auth/google`)}
        className="inline-flex min-h-12 w-full items-center justify-center gap-3 rounded-xl border border-line bg-white px-5 font-semibold text-black hover:bg-white/90"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5">
          <path
            fill="#4285F4"
            d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.7z"
          />
          <path
            fill="#34A853"
            d="M12 24c3.2 0 6-1.1 7.9-2.9l-3.9-3a7.2 7.2 0 0 1-10.8-3.8h-4v3.1A12 12 0 0 0 12 24z"
          />
          <path fill="#FBBC05" d="M5.2 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8z" />
          <path
            fill="#EA4335"
            d="M12 4.8c1.8 0 3.4.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.2 6.6l4 3.1A7.2 7.2 0 0 1 12 4.8z"
          />
        </svg>
        Continue with Google
      </a>
      <p className="mt-6 text-center text-sm text-muted">
        New to Pluckers?{' '}
        <Link href="/Signup" className="font-semibold text-accent hover:underline">
          Create an account
        </Link>
      </p>
    </AuthShell>
  );
}
