/** The longest the download waits for an idle moment before it starts anyway. */
const IDLE_TIMEOUT_MS = 5_000;

function whenIdle(then: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const idle = requestIdleCallback(then, { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(idle);
  }
  const timer = setTimeout(then, IDLE_TIMEOUT_MS);
  return () => clearTimeout(timer);
}

/**
 * Downloads the player screens' code into the browser's cache without running it, so a screen
 * opened later (even on a connection that has dropped meanwhile) takes its files from there
 * and runs its code only then. A worker does it (player-files.worker.ts), started once the
 * page has loaded and the browser is idle and online: the screen being opened keeps the main
 * thread. Returns a function that stops it.
 */
export function downloadPlayerFiles(): () => void {
  let worker: Worker | undefined;
  let cancelIdle = () => {};
  const start = () => {
    cancelIdle = whenIdle(() => {
      if (!navigator.onLine || typeof Worker !== 'function') return;
      worker = new Worker(new URL('./player-files.worker.ts', import.meta.url), {
        type: 'module',
      });
    });
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
  return () => {
    cancelIdle();
    window.removeEventListener('load', start);
    worker?.terminate();
  };
}
