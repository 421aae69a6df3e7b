import { useHydrated } from '@web/lib/hydrated.tsx';
import { restoreSession, tokenStorageHasToken, useSession } from '@web/lib/session.ts';
import {
  createContext,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useState,
} from 'react';

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

const Settled = createContext(true);

/**
 * Whether the stored session (if any) has been restored: until then a signed-in screen shows
 * its shell rather than sending the visitor to /login. Never while hydrating: the session may
 * have settled before the screen's code arrived, and the HTML is the shell.
 */
export function useSessionSettled(): boolean {
  const restoring = useSession((session) => session.restoring);
  const hydrated = useHydrated();
  return useContext(Settled) && hydrated && !restoring;
}

/**
 * Spec §4: restore the session once at start. Pages render at once (the prerendered HTML is
 * hydrated as it is); signed-in screens read `useSessionSettled` and wait, in their shell, until
 * the session and the screen's code (fetched at the same time) are there. The build's prerender
 * runs without a window and renders that waiting state, which a visitor with a token also
 * starts in, so hydration matches.
 */
export function SessionGate({
  children,
  preload,
}: {
  children: ReactNode;
  preload?: ScreenPreloader;
}) {
  const [settled, setSettled] = useState(
    () => typeof window !== 'undefined' && !tokenStorageHasToken(),
  );

  useEffect(() => {
    const pending = started ?? settle(window.location.pathname, preload);
    started = null;
    // A transition: the first full screen renders in slices instead of one long task.
    void pending.finally(() => startTransition(() => setSettled(true)));
  }, [preload]);

  return <Settled value={settled}>{children}</Settled>;
}
