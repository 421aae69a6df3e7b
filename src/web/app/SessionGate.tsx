import { PageSpinner } from '@web/components/ui/Spinner.tsx';
import { restoreSession, tokenStorageHasToken, useSession } from '@web/lib/session.ts';
import { type ReactNode, useEffect, useState } from 'react';

/** Spec §4: restore the session once at start; show a small spinner until it settles. */
export function SessionGate({ children }: { children: ReactNode }) {
  const restoring = useSession((session) => session.restoring);
  const [started, setStarted] = useState(() => !tokenStorageHasToken());

  useEffect(() => {
    void restoreSession(window.location.pathname).finally(() => setStarted(true));
  }, []);

  if (!started || restoring) return <PageSpinner label="Loading your session" />;
  return <>{children}</>;
}
