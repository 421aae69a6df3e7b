import { ERROR_MESSAGES } from '@shared/messages.ts';
import { normalisePhone } from '@shared/phone.ts';
import { type RegisterBody, registerSchema } from '@shared/schemas/auth.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { LiveFields } from '@web/components/ui/LiveFields.tsx';
import { TextField } from '@web/components/ui/TextField.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { register } from '../api/register.ts';
import { loginEmail } from '../lib/login-email.ts';
import { AuthShell } from './AuthShell.tsx';
import { EmailCodeModal } from './EmailCodeModal.tsx';

type FieldName = keyof RegisterBody;

const EMPTY = {
  fullname: '',
  username: '',
  email: '',
  phoneNumber: '',
  password: '',
  confirmPassword: '',
};

export function SignupPage() {
  const [, navigate] = useLocation();
  const [values, setValues] = useState(EMPTY);
  const [ageConfirmed, setAgeConfirmed] = useState(false);
  const [error, setError] = useState<{ field: FieldName; message: string } | null>(null);
  const [emailVerified, setEmailVerified] = useState(false);
  const [codeModalOpen, setCodeModalOpen] = useState(false);
  const [submitting, setSubmitting] = useState(false);

  const set = (field: keyof typeof EMPTY) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    // docs/product.md#states: editing the e-mail resets the verified flag.
    if (field === 'email') setEmailVerified(false);
    if (error?.field === field) setError(null);
  };
  const fieldError = (field: FieldName) => (error?.field === field ? error.message : null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Rules are checked in spec order; the first failing one is shown (same schema as the server).
    const parsed = registerSchema.safeParse({
      ...values,
      phoneNumber: normalisePhone(values.phoneNumber),
      ageConfirmed,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = (issue?.path[0] ?? 'fullname') as FieldName;
      setError({ field, message: issue?.message ?? ERROR_MESSAGES.signup });
      document.getElementById(`signup-${field}`)?.focus();
      return;
    }
    setSubmitting(true);
    try {
      const message = await register(parsed.data);
      toast.success(message);
      loginEmail.remember(parsed.data.email);
      navigate('/login');
    } catch (caught) {
      toast.error(errorMessage(caught, ERROR_MESSAGES.signup));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthShell title="Create your account">
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <LiveFields>
          <TextField
            id="signup-fullname"
            label="Full name"
            name="fullname"
            autoComplete="name"
            value={values.fullname}
            onChange={set('fullname')}
            error={fieldError('fullname')}
          />
          <TextField
            id="signup-username"
            label="Username"
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={values.username}
            onChange={set('username')}
            error={fieldError('username')}
            hint="3 to 20 characters: letters, numbers or _"
          />
          <div className="flex items-end gap-2">
            <TextField
              id="signup-email"
              className="flex-1"
              label="Email"
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              value={values.email}
              onChange={set('email')}
              error={fieldError('email')}
            />
            <Button
              variant={emailVerified ? 'vip' : 'outline'}
              className={fieldError('email') ? 'mb-7' : ''}
              disabled={emailVerified || values.email.trim() === ''}
              onClick={() => setCodeModalOpen(true)}
            >
              {emailVerified ? 'Verified' : 'Verify'}
            </Button>
          </div>
          <TextField
            id="signup-phoneNumber"
            label="Phone number"
            type="tel"
            name="phoneNumber"
            autoComplete="tel"
            inputMode="tel"
            placeholder="0801 234 5678"
            value={values.phoneNumber}
            onChange={set('phoneNumber')}
            error={fieldError('phoneNumber')}
          />
          <TextField
            id="signup-password"
            label="Password"
            type="password"
            name="password"
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
            error={fieldError('password')}
            hint="At least 8 characters"
          />
          <TextField
            id="signup-confirmPassword"
            label="Re-enter password"
            type="password"
            name="confirmPassword"
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={set('confirmPassword')}
            error={fieldError('confirmPassword')}
          />
          <div>
            <label className="flex min-h-11 cursor-pointer items-start gap-3 text-sm">
              <input
                id="signup-ageConfirmed"
                type="checkbox"
                checked={ageConfirmed}
                onChange={(event) => {
                  setAgeConfirmed(event.target.checked);
                  if (error?.field === 'ageConfirmed') setError(null);
                }}
                aria-invalid={fieldError('ageConfirmed') ? true : undefined}
                aria-describedby={fieldError('ageConfirmed') ? 'signup-age-error' : undefined}
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
            {fieldError('ageConfirmed') ? (
              <p id="signup-age-error" className="mt-1 text-sm text-danger">
                {fieldError('ageConfirmed')}
              </p>
            ) : null}
          </div>
        </LiveFields>
        <Button type="submit" loading={submitting} className="w-full">
          Sign up
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-muted">
        Already a Plucker?{' '}
        <Link href="/login" className="font-semibold text-accent hover:underline">
          Log in
        </Link>
      </p>
      <EmailCodeModal
        email={values.email.trim()}
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
