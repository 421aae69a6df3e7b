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
 *
 * A place is the list item nearest the top of the screen, not only a pixel offset: cards off
 * screen are laid out at an estimated height until they come near (`content-visibility`), so
 * the same offset lands on another card when other cards have been drawn. Items that can be
 * returned to carry `data-scroll-anchor` with a key of their own (a game's id).
 */

import type { Query } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client.ts';

const KEY = '__scrollKey';
/**
 * How long a restore keeps trying once the screen has its data (its chunk arriving, its cards
 * being drawn). The wait for the data does not count: on a slow connection a list's answer can
 * take longer than any fixed wait, and the player's own scroll or the next screen ends it.
 */
const SETTLE_FOR_MS = 10_000;

/** Where a history entry was left: the page offset, and the list item nearest the top then. */
interface Place {
  y: number;
  anchor?: { key: string; bottom: number };
}

const positions = new Map<string, Place>();
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

const ANCHOR_ATTRIBUTE = 'data-scroll-anchor';

/**
 * The first list item whose bottom is on screen, or the last one above the screen when the screen
 * is past the list, and how far below the viewport's top it ends. Its end, not its start: an item
 * above the screen may be laid out at its estimated height one time and its own the next.
 */
function anchorNearScreen(): Place['anchor'] {
  let above: Place['anchor'];
  for (const element of document.querySelectorAll<HTMLElement>(`[${ANCHOR_ATTRIBUTE}]`)) {
    const key = element.getAttribute(ANCHOR_ATTRIBUTE);
    if (!key) continue;
    const box = element.getBoundingClientRect();
    if (box.bottom > 0) return { key, bottom: box.bottom };
    above = { key, bottom: box.bottom };
  }
  return above;
}

function currentPlace(): Place {
  return { y: window.scrollY, anchor: anchorNearScreen() };
}

/** The offset that puts the place's item where it was on screen, or its offset when it has none. */
function offsetFor(place: Place): number {
  if (!place.anchor) return place.y;
  const element = document.querySelector(`[${ANCHOR_ATTRIBUTE}="${CSS.escape(place.anchor.key)}"]`);
  if (!element) return place.y;
  return window.scrollY + element.getBoundingClientRect().bottom - place.anchor.bottom;
}

/**
 * Returns to `place` once the screen has rendered with its data and is tall enough; gives up when
 * the player scrolls first. Never at once: Back's event comes while the screen being left is
 * still on the page, which may well be tall enough, and the list it is replaced by not. Done
 * when a frame finds the place still in view without scrolling: items drawn after a scroll can
 * change the heights above it.
 */
function restore(place: Place): void {
  stopRestoring?.();
  let deadline = performance.now() + SETTLE_FOR_MS;
  let frame = 0;
  let stopWaiting: (() => void) | undefined;
  const stop = () => {
    cancelAnimationFrame(frame);
    stopWaiting?.();
    for (const type of ['wheel', 'touchstart', 'keydown'] as const)
      window.removeEventListener(type, stop);
    if (stopRestoring === stop) stopRestoring = undefined;
  };
  for (const type of ['wheel', 'touchstart', 'keydown'] as const)
    window.addEventListener(type, stop, { passive: true });
  stopRestoring = stop;
  const attempt = () => {
    if (!dataArrived()) {
      // The wait can be long (offline, a slow line): woken by the query cache when the data
      // comes, not every frame.
      stopWaiting = queryClient.getQueryCache().subscribe(() => {
        if (!dataArrived()) return;
        stopWaiting?.();
        deadline = performance.now() + SETTLE_FOR_MS;
        frame = requestAnimationFrame(attempt);
      });
      return;
    }
    const y = offsetFor(place);
    const reachable = document.documentElement.scrollHeight - window.innerHeight >= y - 1;
    const inPlace = reachable && Math.abs(window.scrollY - y) < 2;
    if (!inPlace) window.scrollTo(0, y);
    if (inPlace || performance.now() > deadline) {
      stop();
      return;
    }
    frame = requestAnimationFrame(attempt);
  };
  frame = requestAnimationFrame(attempt);
}

function onPush(): void {
  positions.set(currentKey, currentPlace());
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
  positions.set(currentKey, currentPlace());
  const key = keyOf(history.state);
  currentPath = location.pathname;
  if (!key) {
    // An entry the browser made itself (an in-page #anchor): the browser placed it already.
    currentKey = newKey();
    stamp(currentKey);
    return;
  }
  currentKey = key;
  restore(positions.get(key) ?? { y: 0 });
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
