import { ERROR_MESSAGES } from '@shared/messages.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useSession } from '@web/lib/session.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { Link, Redirect } from 'wouter';
import { resendVerificationLink } from '../api/email-verification.ts';
import { AuthShell } from './AuthShell.tsx';

export function VerifyEmailPage() {
  const pendingEmail = useSession((session) => session.pendingEmail);
  const [sending, setSending] = useState(false);

  if (!pendingEmail) return <Redirect to="/login" replace />;

  async function resend(email: string) {
    setSending(true);
    try {
      toast.success(await resendVerificationLink(email));
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
        <p className="text-sm text-muted">
          Can't find it? Check your spam folder, or ask for a new link.
        </p>
        <Button onClick={() => void resend(pendingEmail)} loading={sending} className="w-full">
          Resend Verification Link
        </Button>
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
