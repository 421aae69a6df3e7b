import type { PushSubscriptionInput } from '@shared/schemas/push.ts';
import { savingData } from '@web/lib/data-saver.ts';
import { beforeDeadline } from '@web/lib/deadline.ts';
import { deletePushSubscription } from '../api/delete-push-subscription.ts';
import { getPushKey } from '../api/get-push-key.ts';
import { savePushSubscription } from '../api/save-push-subscription.ts';

/*
 * This browser's side of Web Push: the service worker's PushManager. The server only ever
 * sees the subscription (endpoint and keys); turning off removes it there first, so a device
 * that cannot reach PushManager any more still stops getting pushes.
 */

export type PushState =
  /** No service worker or PushManager (an old browser, iOS outside the home screen). */
  | 'unsupported'
  /** The player said no in the browser's prompt: only the browser's site settings undo it. */
  | 'denied'
  /**
   * Allowed, but the browser has no push service to subscribe with: its worker has no
   * PushManager, or subscribing is refused (browsers built without one, such as Chromium
   * without Google's services, refuse every subscription).
   */
  | 'no-service'
  /** Data saver keeps the app's service worker from installing, and pushes arrive through it. */
  | 'data-saver'
  | 'off'
  | 'on';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/**
 * Some browsers' push services never answer: a Chromium whose push client is stuck, or built
 * without one, can leave subscribe() and getSubscription() pending for good. Past this long
 * the browser counts as having no push service, which the player is told and can retry.
 */
export const PUSH_SERVICE_PATIENCE_MS = 20_000;

export class PushServiceSilent extends Error {
  constructor() {
    super("This browser's notification service did not answer. Try again in a moment.");
  }
}

function pushServiceAnswer<T>(call: Promise<T>): Promise<T> {
  return beforeDeadline(call, PUSH_SERVICE_PATIENCE_MS, () => {
    throw new PushServiceSilent();
  });
}

/** The browser's own refusal, or its silence: with permission granted, no push service. */
function noPushService(error: unknown): boolean {
  return error instanceof DOMException || error instanceof PushServiceSilent;
}

/** Data saver is on and no worker was installed before it: nothing can receive a push. */
class NoWorkerError extends Error {}

async function registration(): Promise<ServiceWorkerRegistration> {
  if (savingData() && !(await navigator.serviceWorker.getRegistration())) {
    throw new NoWorkerError('Data saver keeps the service worker off');
  }
  // The worker is registered after the page loads (app/pwa); wait for it, but not for ever.
  return beforeDeadline(navigator.serviceWorker.ready, 10_000, () => {
    throw new Error('The app is still installing; try again in a moment.');
  });
}

/** The worker's PushManager, or why there is none to use. */
async function pushManager(): Promise<PushManager | 'no-service' | 'data-saver'> {
  try {
    return (await registration()).pushManager ?? 'no-service';
  } catch (error) {
    if (error instanceof NoWorkerError) return 'data-saver';
    throw error;
  }
}

export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const manager = await pushManager();
  if (typeof manager === 'string') return manager;
  try {
    const current = await pushServiceAnswer(manager.getSubscription());
    return current && Notification.permission === 'granted' ? 'on' : 'off';
  } catch (error) {
    if (noPushService(error)) return 'no-service';
    throw error;
  }
}

/** base64url → the bytes PushManager wants as applicationServerKey. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** Asks the browser (its own prompt), subscribes and tells the server. */
export async function turnPushOn(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
  const [manager, publicKey] = await Promise.all([pushManager(), getPushKey()]);
  if (typeof manager === 'string') return manager;
  let subscription: PushSubscription;
  try {
    subscription =
      (await pushServiceAnswer(manager.getSubscription())) ??
      (await pushServiceAnswer(
        manager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }),
      ));
  } catch (error) {
    // AbortError "push service not available", NotAllowedError… or no answer at all.
    if (noPushService(error)) return 'no-service';
    throw error;
  }
  await savePushSubscription(subscription.toJSON() as PushSubscriptionInput);
  return 'on';
}

export async function turnPushOff(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const manager = await pushManager();
  if (typeof manager === 'string') return manager;
  const subscription = await pushServiceAnswer(manager.getSubscription());
  if (subscription) {
    await deletePushSubscription(subscription.endpoint);
    await pushServiceAnswer(subscription.unsubscribe());
  }
  return 'off';
}
