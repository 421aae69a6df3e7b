/**
 * Requests started before the screen that needs them has loaded: the entry asks for Home's
 * first game list while the session and Home's code are still on their way, and Home takes
 * the answer instead of asking again. Each one is used at most once, and only while fresh.
 */
const FRESH_MS = 30_000;

interface Prefetched {
  promise: Promise<unknown>;
  startedAt: number;
  /** Set once the request has succeeded. */
  result?: { value: unknown };
}

const prefetched = new Map<string, Prefetched>();

export function prefetch(key: string, start: () => Promise<unknown>): void {
  const entry: Prefetched = { promise: start(), startedAt: Date.now() };
  // Whoever takes it sees a failure; nobody taking it must not be an unhandled rejection.
  entry.promise.then(
    (value) => {
      entry.result = { value };
    },
    () => {},
  );
  prefetched.set(key, entry);
}

function takeFresh(key: string): Prefetched | undefined {
  const entry = prefetched.get(key);
  prefetched.delete(key);
  return entry && Date.now() - entry.startedAt <= FRESH_MS ? entry : undefined;
}

/**
 * The prefetched answer for `key`, if one was started in the last 30 s (the query cache's own
 * freshness); a failed one is asked again with `fallback`, so a stale error never shows.
 */
export function takePrefetched<T>(key: string, fallback: () => Promise<T>): Promise<T> {
  const entry = takeFresh(key);
  return entry ? (entry.promise as Promise<T>).catch(fallback) : fallback();
}

/**
 * The prefetched answer for `key` if it is already back (and fresh), for a screen to show on
 * its first render instead of a loading state; it is used up, as with `takePrefetched`.
 */
export function takeArrived<T>(key: string): T | undefined {
  const entry = prefetched.get(key);
  if (!entry?.result) return undefined;
  return takeFresh(key)?.result?.value as T | undefined;
}

/** Forgets everything prefetched (sign-out: the answers belonged to the previous token). */
export function clearPrefetched(): void {
  prefetched.clear();
}
