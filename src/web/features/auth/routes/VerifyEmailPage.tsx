import { ERROR_MESSAGES } from '@shared/messages.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { setPendingEmail, useSession } from '@web/lib/session.ts';
import { sessionCopy } from '@web/lib/storage.ts';
import { toast } from '@web/lib/toast.tsx';
import { useEffect, useId, useState } from 'react';
import { Link, Redirect, useLocation } from 'wouter';
import { resendVerificationLink } from '../api/email-verification.ts';
import { VerificationCodeField } from '../lib/credential-fields.tsx';
import { useEmailCodeForm } from '../lib/email-code-form.ts';
import { loginEmail } from '../lib/login-email.ts';
import { holdResend, resendWaitKey } from '../lib/resend-wait.ts';
import { AuthShell } from './AuthShell.tsx';

/** The minute after the last link (the sign-up's or a resend's), counted down (lib/resend-wait.ts). */
function useResendWait(email: string | null) {
  const [until, setUntil] = useState(() =>
    Number(email ? sessionCopy.get(resendWaitKey(email)) : 0),
  );
  const [now, setNow] = useState(() => Date.now());
  const waiting = until > now;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [waiting]);
  const start = () => {
    if (!email) return;
    const next = holdResend(email);
    setNow(Date.now());
    setUntil(next);
  };
  return { secondsLeft: waiting ? Math.ceil((until - now) / 1000) : 0, start };
}

function clock(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * The code printed in the same e-mail as the link, for a player who reads mail on another
 * device than the one they play on: once it checks out, the account is verified and the
 * player logs in with the address already filled in.
 */
function CodeForm({ email }: { email: string }) {
  const [, navigate] = useLocation();
  // The address is the one waiting, not typed again.
  const { form, checking, onSubmit } = useEmailCodeForm(email, () => {
    loginEmail.remember(email);
    setPendingEmail(null);
    navigate('/login', { replace: true });
  });

  return (
    <form
      ref={form.formRef}
      noValidate
      aria-label="Verify with the code"
      onSubmit={onSubmit}
      className="flex flex-col gap-3"
    >
      <p className="text-sm text-muted">
        Reading your mail on another device? Enter the 6-digit code from the same e-mail.
      </p>
      <VerificationCodeField
        otp={form.field('otp')}
        onDigits={(digits) => form.set('otp', digits)}
      />
      <Button type="submit" variant="outline" loading={checking} className="w-full">
        Verify code
      </Button>
    </form>
  );
}

export function VerifyEmailPage() {
  const pendingEmail = useSession((session) => session.pendingEmail);
  const [sending, setSending] = useState(false);
  const { secondsLeft, start } = useResendWait(pendingEmail);
  const waitId = useId();

  if (!pendingEmail) return <Redirect to="/login" replace />;

  async function resend(email: string) {
    setSending(true);
    try {
      toast.success(await resendVerificationLink(email));
      start();
    } catch (error) {
      toast.error(errorMessage(error, ERROR_MESSAGES.loginAndResend));
    } finally {
      setSending(false);
    }
  }

  return (
    <AuthShell title="Verify your e-mail">
      <div className="flex flex-col gap-5">
        <div
          aria-hidden="true"
          className="grid size-16 place-items-center rounded-2xl bg-accent/15 text-3xl"
        >
          ✉️
        </div>
        <p className="text-white/85">
          We sent a verification link to{' '}
          <strong className="break-all text-white">{pendingEmail}</strong>. Open it on this device
          to activate your account, then log in.
        </p>
        <CodeForm email={pendingEmail} />
        <p className="text-sm text-muted">
          Can't find it? Check your spam folder, or ask for a new link.
        </p>
        <div className="flex flex-col gap-2">
          <Button
            onClick={() => void resend(pendingEmail)}
            loading={sending}
            disabled={secondsLeft > 0}
            aria-describedby={secondsLeft > 0 ? waitId : undefined}
            className="w-full"
          >
            Resend Verification Link
          </Button>
          {secondsLeft > 0 ? (
            <p id={waitId} className="text-center text-sm text-muted tabular-nums">
              You can ask for another link in {clock(secondsLeft)}.
            </p>
          ) : null}
        </div>
        <Link
          href="/login"
          className="text-center text-sm font-semibold text-accent hover:underline"
        >
          Back to log in
        </Link>
      </div>
    </AuthShell>
  );
}
