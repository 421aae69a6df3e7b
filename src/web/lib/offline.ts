import { useSyncExternalStore } from 'react';

/*
 * Whether the browser says it is online, for screens that would otherwise spin while a read
 * waits for the connection (TanStack Query pauses reads offline and resumes them once the
 * browser is back online). Kept free of TanStack so the sign-in screens can use it too.
 */

function subscribe(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

let retryHandler: () => void = () => {};

/** The query client registers how to retry the reads that wait for the connection. */
export function setOfflineRetry(handler: () => void): void {
  retryHandler = handler;
}

/** Retry pressed on an offline message: checks the connection again and retries if it is back. */
export function retryOffline(): void {
  retryHandler();
}

/*
 * Reads the service worker answered from its saved copy because the network failed or was too
 * slow (it marks them, see app/pwa/pwa-options.ts): the app says "Offline, last updated …".
 */
export const SAVED_COPY_HEADER = 'x-pluckers-cached';

/** When the oldest saved copy on show was fetched (0 when its date is unknown), or null. */
let savedCopyAt: number | null = null;
const savedCopyListeners = new Set<() => void>();

/** The HTTP client reports every API read: a fresh one means the connection is back. */
export function noteRead(headers: Headers): void {
  let next: number | null = null;
  if (headers.get(SAVED_COPY_HEADER)) {
    const at = Date.parse(headers.get('date') ?? '') || 0;
    next = savedCopyAt === null ? at : Math.min(savedCopyAt, at);
  }
  if (next === savedCopyAt) return;
  savedCopyAt = next;
  for (const listener of savedCopyListeners) listener();
}

function subscribeSavedCopy(listener: () => void): () => void {
  savedCopyListeners.add(listener);
  return () => savedCopyListeners.delete(listener);
}

export function useSavedCopyAt(): number | null {
  return useSyncExternalStore(
    subscribeSavedCopy,
    () => savedCopyAt,
    () => null,
  );
}
