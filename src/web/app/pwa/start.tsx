/// <reference types="vite-plugin-pwa/vanillajs" />

import { registerSW } from 'virtual:pwa-register';
import { savingData } from '@web/lib/data-saver.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PwaPrompts } from './PwaPrompts.tsx';
import { setUpdate } from './update-state.ts';

/*
 * Loaded by the entry after the page has loaded: registers the Workbox service
 * worker and shows its prompts in a root of their own, outside the app's screens.
 */

// Installing the worker downloads every screen ahead of need (the precache): in low-data mode
// it is not installed here (one installed before keeps working), and the browser's own cache
// of the hashed files still makes a repeat visit small.
if (!savingData()) {
  const reload = registerSW({
    immediate: true,
    // A new version is waiting: the player chooses when to reload (registerType 'prompt').
    onNeedRefresh: () => setUpdate(() => void reload(true)),
  });
}

const host = document.createElement('div');
host.id = 'pwa-prompts';
document.body.append(host);
createRoot(host).render(
  <StrictMode>
    <PwaPrompts />
  </StrictMode>,
);
