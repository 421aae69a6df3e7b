// First, so no schema parses before zod is told the page's CSP forbids eval.
import './lib/zod-config.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, preloadScreen } from './app/App.tsx';
import { ScreenCodeError } from './app/ScreenBoundary.tsx';
import { startSession } from './app/SessionGate.tsx';
import { installScrollRestoration } from './app/scroll-restoration.ts';
import { apiOrigin } from './lib/api-origin.ts';
import { holdInstallOffer } from './lib/install-moment.ts';
import { loadPaymentModes } from './lib/payment-modes.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

/**
 * Whether #root holds the build's HTML of this very address (scripts/prerender-web.ts writes
 * the paths it was rendered for into data-paths), so React can adopt it as it is. Anything
 * else is rendered afresh over it: a page asked for in another spelling, /login with an error
 * to show, or an API on another origin (its links differ from the built ones).
 */
function prerenderedHere(element: HTMLElement): boolean {
  const paths = element.dataset.paths?.split(' ') ?? [];
  return (
    paths.includes(window.location.pathname.toLowerCase()) &&
    !new URLSearchParams(window.location.search).has('error') &&
    apiOrigin() === ''
  );
}

/** A screen whose code did not arrive is shown and explained (ScreenBoundary), not an error. */
const options = {
  onCaughtError(error: unknown) {
    if (!(error instanceof ScreenCodeError)) console.error(error);
  },
};
// Hydrated as a transition: React adopts the HTML in slices the browser can answer input
// between, instead of one long task (the page already shows it, so nothing waits on it).
function mount(root: HTMLElement) {
  const hydrating = prerenderedHere(root);
  const app = (
    <StrictMode>
      <App hydrating={hydrating} />
    </StrictMode>
  );
  if (hydrating) startTransition(() => void hydrateRoot(root, app, options));
  else createRoot(root, options).render(app);
}

/**
 * The service worker and its prompts (update, install, offline) only once the page has loaded,
 * from a chunk of their own: the first screen neither waits for them nor pays for them.
 */
function startPwaOnceLoaded() {
  if (!('serviceWorker' in navigator)) return;
  const startPwa = () => void import('./app/pwa/start.tsx');
  if (document.readyState === 'complete') startPwa();
  else window.addEventListener('load', startPwa, { once: true });
}

/** Runs each step in a task of its own, in order, so the browser can answer input between them. */
function oneTaskEach(steps: ReadonlyArray<() => void>) {
  const [step, ...rest] = steps;
  if (!step) return;
  setTimeout(() => {
    step();
    oneTaskEach(rest);
  });
}

// Evaluating the modules (React DOM's among them) is one long task already, so the start-up
// work comes after it: first the session requests and the screen's chunks, which the first
// render waits for, then React, then what can wait for the page.
oneTaskEach([
  () => {
    installScrollRestoration();
    startSession(window.location.pathname, preloadScreen);
    void loadPaymentModes();
    holdInstallOffer();
  },
  () => mount(root),
  startPwaOnceLoaded,
]);
