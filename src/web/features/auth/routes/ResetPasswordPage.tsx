import { ERROR_MESSAGES } from '@shared/messages.ts';
import { resetPasswordSchema } from '@shared/schemas/auth.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { z } from 'zod';
import { resetPassword } from '../api/password-reset.ts';
import { NewPasswordFields } from '../lib/credential-fields.tsx';
import { loginEmail } from '../lib/login-email.ts';
import { AuthShell } from './AuthShell.tsx';

export function ResetPasswordPage() {
  const [, navigate] = useLocation();
  const email = new URLSearchParams(useSearch()).get('email');
  const form = useSchemaForm({
    schema: resetPasswordSchema,
    initial: { otp: '', password: '', confirmPassword: '' },
    toInput: (values) => ({ email, ...values }),
    report: 'first',
  });
  const [submitting, setSubmitting] = useState(false);

  // docs/product.md#validation: without the email parameter, back to /forgotpassword with 'An error occurred'.
  useEffect(() => {
    if (email) return;
    toast.error(ERROR_MESSAGES.resetNeedsEmail);
    navigate('/forgotpassword', { replace: true });
  }, [email, navigate]);
  if (!email) return null;

  async function submit(body: z.output<typeof resetPasswordSchema>) {
    setSubmitting(true);
    try {
      toast.success(await resetPassword(body));
      loginEmail.remember(body.email);
      navigate('/login', { replace: true });
    } catch (caught) {
      toast.error(errorMessage(caught, ERROR_MESSAGES.verifyForgotReset));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthShell title="Reset your password">
      <p className="mb-5 text-white/80">
        Enter the code we sent to <strong className="break-all text-white">{email}</strong> and
        choose a new password.
      </p>
      <form
        ref={form.formRef}
        noValidate
        onSubmit={form.handleSubmit((body) => void submit(body))}
        className="flex flex-col gap-4"
      >
        <Field
          label="Reset code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          {...form.field('otp')}
        />
        <NewPasswordFields
          labels={['New password', 'Confirm new password']}
          password={form.field('password')}
          confirmPassword={form.field('confirmPassword')}
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
