import { useSyncExternalStore } from 'react';

/** How to switch to the waiting version, once the service worker has one. */
let applyUpdate: (() => void) | null = null;
const listeners = new Set<() => void>();

export function setUpdate(apply: (() => void) | null): void {
  applyUpdate = apply;
  for (const listener of listeners) listener();
}

export function useUpdate(): (() => void) | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => applyUpdate,
    () => null,
  );
}
