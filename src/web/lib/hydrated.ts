import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while React hydrates the prerendered HTML, true afterwards: what the build could not
 * know (an answer that has already arrived) must wait for the first render after hydration,
 * or the markup would differ from the HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
