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
