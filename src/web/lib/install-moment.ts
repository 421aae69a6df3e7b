import { storedFlag } from './storage.ts';

/*
 * When to offer installing the app: never on a first visit, only once the player
 * has submitted an answer. The browser's own offer (beforeinstallprompt) is held back from the
 * start, so Chrome's mini-infobar never shows on its own; the prompt of app/pwa shows it later.
 */

export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export const ANSWERED_KEY = 'pluckers.answered';
export const INSTALL_DISMISSED_KEY = 'pluckers.installDismissed';

let offer: InstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};

/** Called by the entry: keeps the browser's install offer for later. */
export function holdInstallOffer(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    offer = event as InstallPromptEvent;
    notify();
  });
  window.addEventListener('appinstalled', () => {
    offer = null;
    notify();
  });
}

/** The player's first answer went in: from now on the install prompt may show. */
export function noteAnswerSubmitted(): void {
  if (storedFlag.get(ANSWERED_KEY)) return;
  storedFlag.set(ANSWERED_KEY, true);
  notify();
}

/** The held offer, if the browser made one. */
export function installOffer(): InstallPromptEvent | null {
  return offer;
}

/** Used up or declined: the browser allows one prompt() per offer. */
export function dropInstallOffer(): void {
  offer = null;
  notify();
}

export function onInstallMomentChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
