/**
 * The service worker's cache of API reads kept for offline use (see app/pwa/pwa-options.ts).
 * The responses belong to whoever was signed in, so signing out empties it.
 */
export const API_CACHE = 'pluckers-api-reads';

/** Forgets the saved API reads (sign-out), where the browser has Cache Storage at all. */
export function forgetSavedReads(): void {
  if (typeof caches !== 'undefined') void caches.delete(API_CACHE).catch(() => undefined);
}
