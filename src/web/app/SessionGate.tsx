import { PageSpinner } from '@web/components/ui/Spinner.tsx';
import { restoreSession, tokenStorageHasToken, useSession } from '@web/lib/session.ts';
import { type ReactNode, startTransition, useEffect, useState } from 'react';

/** Fetches, alongside the session, what the screen at a path needs to show (its code). */
export type ScreenPreloader = (pathname: string) => Promise<unknown> | undefined;

/** Everything the first screen waits for; nothing without a stored token. */
function settle(pathname: string, preload?: ScreenPreloader): Promise<unknown> {
  if (!tokenStorageHasToken()) return Promise.resolve();
  return Promise.allSettled([restoreSession(pathname), preload?.(pathname)]);
}

let started: Promise<unknown> | null = null;

/**
 * Called by the entry before React's first render, so the session requests and the screen's
 * code leave as early as possible; the SessionGate that mounts next waits for the same work.
 */
export function startSession(pathname: string, preload?: ScreenPreloader): void {
  started = settle(pathname, preload);
}

/**
 * Spec §4: restore the session once at start; show a small spinner until it settles (and, with
 * a stored token, until the code of the screen asked for is there too: it was fetched at the
 * same time).
 */
export function SessionGate({
  children,
  preload,
}: {
  children: ReactNode;
  preload?: ScreenPreloader;
}) {
  const restoring = useSession((session) => session.restoring);
  const [settled, setSettled] = useState(() => !tokenStorageHasToken());

  useEffect(() => {
    const pending = started ?? settle(window.location.pathname, preload);
    started = null;
    // A transition: the first full screen renders in slices instead of one long task.
    void pending.finally(() => startTransition(() => setSettled(true)));
  }, [preload]);

  if (!settled || restoring) return <PageSpinner label="Loading your session" />;
  return <>{children}</>;
}
