import { ERROR_MESSAGES, SIGNUP_MESSAGES } from '@shared/messages.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { LiveForm } from '@web/components/ui/LiveForm.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { requireFilled, useSchemaForm } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { forgotPassword } from '../api/password-reset.ts';
import { EMAIL_INPUT } from '../lib/credential-fields.tsx';
import { AuthShell } from './AuthShell.tsx';

export function ForgotPasswordPage() {
  const [, navigate] = useLocation();
  const form = useSchemaForm({
    schema: requireFilled({ email: SIGNUP_MESSAGES.email }),
    initial: { email: '' },
    report: 'first',
  });
  const [submitting, setSubmitting] = useState(false);

  async function submit(values: { email: string }) {
    const address = values.email.trim();
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
      <LiveForm
        form={form}
        onSubmit={form.handleSubmit((values) => void submit(values))}
        className="flex flex-col gap-4"
      >
        <Field label="Email" {...EMAIL_INPUT} {...form.field('email')} />
        <Button type="submit" loading={submitting} className="w-full">
          Send reset code
        </Button>
      </LiveForm>
      <Link
        href="/login"
        className="mt-6 block text-center text-sm font-semibold text-accent hover:underline"
      >
        Back to log in
      </Link>
    </AuthShell>
  );
}
