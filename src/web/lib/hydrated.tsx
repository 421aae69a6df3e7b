import {
  createContext,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useState,
} from 'react';

/** Outside the app (a test rendering a part of it): a render with nothing to adopt. */
const Hydrated = createContext(true);

/**
 * Whether React has adopted the prerendered HTML (`hydrating`) yet, for the app below it. The
 * change comes as a transition, rendered in slices: a store read with useSyncExternalStore whose
 * browser value differs from the HTML's would instead make React render its readers again at
 * once, in one long task, as soon as hydration ends.
 */
export function HydrationState({
  hydrating,
  children,
}: {
  hydrating: boolean;
  children: ReactNode;
}) {
  const [hydrated, setHydrated] = useState(!hydrating);
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return <Hydrated value={hydrated}>{children}</Hydrated>;
}

/**
 * False while React hydrates the prerendered HTML, true afterwards: what the build could not
 * know (an answer that has already arrived) must wait for the first render after hydration,
 * or the markup would differ from the HTML.
 */
export function useHydrated(): boolean {
  return useContext(Hydrated);
}
