import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadScreen } from './app/App.tsx';
import { startSession } from './app/SessionGate.tsx';
import { installScrollRestoration } from './app/scroll-restoration.ts';
import { holdInstallOffer } from './lib/install-moment.ts';
import { loadPaymentModes } from './lib/payment-modes.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

installScrollRestoration();
// Before the first render: the session requests and the screen's chunks start right away.
startSession(window.location.pathname, preloadScreen);
void loadPaymentModes();
holdInstallOffer();

// The service worker and its prompts (update, install, offline) only once the page has loaded,
// from a chunk of their own: the first screen neither waits for them nor pays for them.
if ('serviceWorker' in navigator) {
  const startPwa = () => void import('./app/pwa/start.tsx');
  if (document.readyState === 'complete') startPwa();
  else window.addEventListener('load', startPwa, { once: true });
}

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
