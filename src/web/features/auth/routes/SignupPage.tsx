import { ERROR_MESSAGES } from '@shared/messages.ts';
import { normalisePhone } from '@shared/phone.ts';
import { type RegisterBody, signupFormSchema } from '@shared/schemas/auth.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { LiveForm } from '@web/components/ui/LiveForm.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { register } from '../api/register.ts';
import { EMAIL_INPUT, NewPasswordFields } from '../lib/credential-fields.tsx';
import { loginEmail } from '../lib/login-email.ts';
import { holdResend } from '../lib/resend-wait.ts';
import { AuthShell } from './AuthShell.tsx';
import { EmailCodeModal } from './EmailCodeModal.tsx';

const EMPTY = {
  fullname: '',
  username: '',
  email: '',
  phoneNumber: '',
  password: '',
  confirmPassword: '',
  ageConfirmed: false,
};

export function SignupPage() {
  const [, navigate] = useLocation();
  // docs/product.md#validation: rules checked in that order, the first failing one shown (the
  // server's own schema).
  const form = useSchemaForm({
    schema: signupFormSchema,
    initial: EMPTY,
    toInput: (values) => ({ ...values, phoneNumber: normalisePhone(values.phoneNumber) }),
    report: 'first',
  });
  const [emailVerified, setEmailVerified] = useState(false);
  const [codeModalOpen, setCodeModalOpen] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const email = form.field('email');
  const ageError = form.errors.ageConfirmed;

  async function submit(body: RegisterBody) {
    setSubmitting(true);
    try {
      const message = await register(body);
      // The sign-up's own e-mail carries the first link: Resend waits its minute out.
      holdResend(body.email);
      toast.success(message);
      loginEmail.remember(body.email, { unverified: true });
      navigate('/login');
    } catch (caught) {
      toast.error(errorMessage(caught, ERROR_MESSAGES.signup));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthShell title="Create your account">
      <LiveForm
        form={form}
        onSubmit={form.handleSubmit((body) => void submit(body))}
        className="flex flex-col gap-4"
      >
        <Field label="Full name" autoComplete="name" {...form.field('fullname')} />
        <Field
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          hint="3 to 20 characters: letters, numbers or _"
          {...form.field('username')}
        />
        <div className="flex items-end gap-2">
          <Field
            className="flex-1"
            label="Email"
            {...EMAIL_INPUT}
            {...email}
            onChange={(event) => {
              email.onChange(event);
              // docs/product.md#states: editing the e-mail resets the verified flag.
              setEmailVerified(false);
            }}
          />
          <Button
            variant={emailVerified ? 'vip' : 'outline'}
            // As tall as the e-mail input beside it, bottoms aligned.
            className={`min-h-12 ${email.error ? 'mb-7' : ''}`}
            disabled={emailVerified || email.value.trim() === ''}
            onClick={() => setCodeModalOpen(true)}
          >
            {emailVerified ? 'Verified' : 'Verify'}
          </Button>
        </div>
        <Field
          label="Phone number"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder="0801 234 5678"
          {...form.field('phoneNumber')}
        />
        <NewPasswordFields
          labels={['Password', 'Re-enter password']}
          password={form.field('password')}
          confirmPassword={form.field('confirmPassword')}
        />
        <div>
          <label className="flex min-h-11 cursor-pointer items-start gap-3 text-sm">
            <input
              id="signup-ageConfirmed"
              type="checkbox"
              {...form.checkbox('ageConfirmed')}
              aria-invalid={ageError ? true : undefined}
              aria-describedby={ageError ? 'signup-age-error' : undefined}
              className="mt-0.5 size-5 accent-[#00dae4]"
            />
            <span>
              I am 18 or over and accept the{' '}
              <Link href="/Terms" className="font-semibold text-accent underline">
                terms
              </Link>{' '}
              and{' '}
              <Link href="/GameRules" className="font-semibold text-accent underline">
                game rules
              </Link>
              .
            </span>
          </label>
          {ageError ? (
            <p id="signup-age-error" className="mt-1 text-sm text-danger">
              {ageError}
            </p>
          ) : null}
        </div>
        <Button type="submit" loading={submitting} className="w-full">
          Sign up
        </Button>
      </LiveForm>
      <p className="mt-6 text-center text-sm text-muted">
        Already a Plucker?{' '}
        <Link href="/login" className="font-semibold text-accent hover:underline">
          Log in
        </Link>
      </p>
      <EmailCodeModal
        email={email.value.trim()}
        open={codeModalOpen}
        onClose={() => setCodeModalOpen(false)}
        onVerified={() => {
          setEmailVerified(true);
          setCodeModalOpen(false);
        }}
      />
    </AuthShell>
  );
}
