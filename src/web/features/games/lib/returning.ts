/*
 * Home seen on this device in an earlier visit, for the compact hero on phones.
 * The page's boot script reads the same key before the first paint and marks <html
 * data-returning> (shared/boot-script.ts), so the hero's size is settled before anything shows.
 */
import { HOME_SEEN_KEY } from '@shared/boot-script.ts';

export function markHomeSeen(): void {
  try {
    localStorage.setItem(HOME_SEEN_KEY, '1');
  } catch {
    // Private mode or storage off: the full hero every time.
  }
}
