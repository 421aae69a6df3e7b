import type { PushSubscriptionInput } from '@shared/schemas/push.ts';
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

async function registration(): Promise<ServiceWorkerRegistration> {
  // The worker is registered after the page loads (app/pwa); wait for it, but not for ever.
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error('The app is still installing; try again in a moment.')),
        10_000,
      ),
    ),
  ]);
}

export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const current = await (await registration()).pushManager.getSubscription();
  return current && Notification.permission === 'granted' ? 'on' : 'off';
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
  const [worker, publicKey] = await Promise.all([registration(), getPushKey()]);
  const subscription =
    (await worker.pushManager.getSubscription()) ??
    (await worker.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    }));
  await savePushSubscription(subscription.toJSON() as PushSubscriptionInput);
  return 'on';
}

export async function turnPushOff(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const subscription = await (await registration()).pushManager.getSubscription();
  if (subscription) {
    await deletePushSubscription(subscription.endpoint);
    await subscription.unsubscribe();
  }
  return 'off';
}
