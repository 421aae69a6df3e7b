import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadScreen } from './app/App.tsx';
import { startSession } from './app/SessionGate.tsx';
import { installScrollRestoration } from './app/scroll-restoration.ts';
import { loadPaymentModes } from './lib/payment-modes.ts';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

installScrollRestoration();
// Before the first render: the session requests and the screen's chunks start right away.
startSession(window.location.pathname, preloadScreen);
void loadPaymentModes();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
