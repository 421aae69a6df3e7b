import { storedFlag } from './storage.ts';

/*
 * When to offer installing the app: never on a first visit, only once the player
 * has submitted an answer, and not while a dialog covers the page. The browser's own offer (beforeinstallprompt) is held back from the
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

/*
 * A modal <dialog> (the answer's success, a confirmation) puts the rest of the page under its
 * backdrop: a sheet shown then sits dimmed and out of reach behind it. The install moment
 * waits until no dialog is open; the page's dialogs are watched while someone listens.
 */
function dialogOpen(): boolean {
  return document.querySelector('dialog[open]') !== null;
}

let watcher: MutationObserver | null = null;
let lastDialogOpen = false;

function watchDialogs(): void {
  lastDialogOpen = dialogOpen();
  watcher = new MutationObserver(() => {
    const open = dialogOpen();
    if (open === lastDialogOpen) return;
    lastDialogOpen = open;
    notify();
  });
  watcher.observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['open'],
  });
}

/** Nothing is in the way of the install sheet: no dialog is open over the page. */
export function noDialogOpen(): boolean {
  return !dialogOpen();
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
  if (!watcher) watchDialogs();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      watcher?.disconnect();
      watcher = null;
    }
  };
}
