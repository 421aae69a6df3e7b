import { ERROR_MESSAGES } from '@shared/messages.ts';
import { Spinner } from '@web/components/ui/Spinner.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { setPendingEmail, signIn } from '@web/lib/session.ts';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { validateToken } from '../api/email-verification.ts';
import { AuthShell } from './AuthShell.tsx';

/** /auth/validate/:token — the e-mail link, and where Google logins land. */
export function ValidateTokenPage() {
  const { token = '' } = useParams<{ token: string }>();
  const [, navigate] = useLocation();
  const [error, setError] = useState<string | null>(null);
  // One-time tokens must be spent once, even when React runs effects twice in development.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    (async () => {
      try {
        const accessToken = await validateToken(token);
        await signIn(accessToken);
        setPendingEmail(null);
        navigate('/', { replace: true });
      } catch (caught) {
        setError(errorMessage(caught, ERROR_MESSAGES.verifyForgotReset));
      }
    })();
  }, [token, navigate]);

  return (
    <AuthShell title={error ? 'We could not validate you' : 'Validating'}>
      {error ? (
        <div className="flex flex-col gap-4">
          <p
            role="alert"
            className="rounded-xl border border-danger/50 bg-danger/15 px-4 py-3 text-white"
          >
            {error}
          </p>
          <Link href="/login" className="font-semibold text-accent hover:underline">
            Back to log in
          </Link>
        </div>
      ) : (
        <div className="flex items-center gap-3 text-white/85">
          <Spinner label="Validating" />
          <span>Hold on while we check your link…</span>
        </div>
      )}
    </AuthShell>
  );
}
