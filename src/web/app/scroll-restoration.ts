/**
 * Scroll positions per history entry, as a multi-page site has them: a new
 * screen opens at the top; Back and Forward return to where the player was on that entry.
 *
 * wouter has no ScrollRestoration of its own, and the browser's cannot work for a single-page
 * app (it restores before the screen has rendered), so: the browser's is turned off, each
 * history entry gets a key in its state, the position is noted for the key being left, and on
 * Back/Forward it is put back once the screen has rendered with its data and is tall enough for
 * it. wouter dispatches `pushState`/`replaceState` events from its patched history methods,
 * which is how pushes and replacements are told from Back and Forward (`popstate`).
 */

import type { Query } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client.ts';

const KEY = '__scrollKey';
/**
 * How long a restore waits for the screen (lazy chunk, its list's first answer) to render; on a
 * slow connection a list's answer takes seconds, and the player's own scroll ends the wait.
 */
const RESTORE_FOR_MS = 10_000;

const positions = new Map<string, number>();
let currentKey = '';
let currentPath = '';
let stamping = false;
let stopRestoring: (() => void) | undefined;

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

function keyOf(state: unknown): string | undefined {
  if (state && typeof state === 'object' && KEY in state) {
    const key = (state as Record<string, unknown>)[KEY];
    return typeof key === 'string' ? key : undefined;
  }
  return undefined;
}

/** Writes the key into the current entry's state, keeping whatever state the app put there. */
function stamp(key: string): void {
  const state = history.state;
  const merged =
    state && typeof state === 'object' && !Array.isArray(state)
      ? { ...state, [KEY]: key }
      : { [KEY]: key };
  stamping = true;
  try {
    history.replaceState(merged, '');
  } finally {
    stamping = false;
  }
}

/**
 * A read on screen still waiting for its first answer (fetching, or paused offline); a disabled
 * one never loads and a prefetch has no screen waiting, so neither counts.
 */
const awaitingFirstData = (query: Query): boolean =>
  query.state.status === 'pending' &&
  query.state.fetchStatus !== 'idle' &&
  query.getObserversCount() > 0;

/**
 * Whether the screen has its data. A loading screen can be tall enough for the position, yet the
 * list that was there is not.
 */
function dataArrived(): boolean {
  return queryClient.getQueryCache().findAll({ predicate: awaitingFirstData }).length === 0;
}

/**
 * Scrolls to `y` once the screen has rendered with its data and is tall enough; gives up when the
 * player scrolls first. Never at once: Back's event comes while the screen being left is still
 * on the page, which may well be tall enough, and the list it is replaced by not.
 */
function restore(y: number): void {
  stopRestoring?.();
  const deadline = performance.now() + RESTORE_FOR_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of ['wheel', 'touchstart', 'keydown'] as const)
      window.removeEventListener(type, stop);
    if (stopRestoring === stop) stopRestoring = undefined;
  };
  for (const type of ['wheel', 'touchstart', 'keydown'] as const)
    window.addEventListener(type, stop, { passive: true });
  stopRestoring = stop;
  const attempt = () => {
    const expired = performance.now() > deadline;
    if (dataArrived() || expired) {
      const reachable = document.documentElement.scrollHeight - window.innerHeight >= y;
      window.scrollTo(0, y);
      if ((reachable && Math.abs(window.scrollY - y) < 2) || expired) {
        stop();
        return;
      }
    }
    frame = requestAnimationFrame(attempt);
  };
  frame = requestAnimationFrame(attempt);
}

function onPush(): void {
  positions.set(currentKey, window.scrollY);
  currentKey = newKey();
  currentPath = location.pathname;
  stamp(currentKey);
  stopRestoring?.();
  window.scrollTo(0, 0);
}

function onReplace(): void {
  if (stamping) return;
  // The same screen rewriting its address (filters, a tab in the query) keeps its place.
  if (location.pathname === currentPath) {
    stamp(currentKey);
    return;
  }
  positions.delete(currentKey);
  currentKey = newKey();
  currentPath = location.pathname;
  stamp(currentKey);
  stopRestoring?.();
  window.scrollTo(0, 0);
}

function onPop(): void {
  positions.set(currentKey, window.scrollY);
  const key = keyOf(history.state);
  currentPath = location.pathname;
  if (!key) {
    // An entry the browser made itself (an in-page #anchor): the browser placed it already.
    currentKey = newKey();
    stamp(currentKey);
    return;
  }
  currentKey = key;
  restore(positions.get(key) ?? 0);
}

let installed = false;

/** Turns the browser's own restoration off and takes over; once, before the first render. */
export function installScrollRestoration(): void {
  if (installed || typeof history === 'undefined') return;
  installed = true;
  history.scrollRestoration = 'manual';
  currentKey = keyOf(history.state) ?? newKey();
  currentPath = location.pathname;
  stamp(currentKey);
  window.addEventListener('pushState', onPush);
  window.addEventListener('replaceState', onReplace);
  window.addEventListener('popstate', onPop);
}
