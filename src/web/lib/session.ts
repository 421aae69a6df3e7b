import { STORAGE_KEYS } from '@shared/constants.ts';
import type { Game } from '@shared/schemas/games.ts';
import type { Settings } from '@shared/schemas/settings.ts';
import type { User } from '@shared/schemas/users.ts';
import { useSyncExternalStore } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { forgetSavedReads } from './cache-names.ts';
import { beforeDeadline } from './deadline.ts';
import { http, quietForSignOut, resumeAfterSignOut, setUnauthorizedHandler } from './http.ts';
import { useHydrated } from './hydrated.tsx';
import { clearPrefetched } from './prefetch.ts';
import { sessionCopy, tokenStorage } from './storage.ts';

const PENDING_EMAIL_KEY = 'pendingEmail';

/** App state of docs/product.md#data: user, e-mail awaiting verification, current game, settings. */
export interface SessionState {
  restoring: boolean;
  user: User | null;
  settings: Settings | null;
  pendingEmail: string | null;
  currentGame: Game | null;
  /** Log out was pressed and the server is being told: on a slow line that takes seconds. */
  loggingOut: boolean;
}

let state: SessionState = {
  restoring: false,
  user: null,
  settings: null,
  pendingEmail: sessionCopy.get(PENDING_EMAIL_KEY),
  currentGame: null,
  loggingOut: false,
};
const listeners = new Set<() => void>();

function update(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getSession(): SessionState {
  return state;
}

/** What the build's prerender saw, and so what hydration must render: nobody signed in yet. */
const BEFORE_RESTORE: SessionState = { ...state, pendingEmail: null };

/**
 * The session as the screen shows it: what hydration rendered until hydration is over (so the
 * store's value differing from the HTML's forces no render of its own), then the session as it
 * is, shown by that transition.
 */
export function useSession<T>(select: (session: SessionState) => T): T {
  const hydrated = useHydrated();
  return useSyncExternalStore(
    subscribe,
    () => select(hydrated ? state : BEFORE_RESTORE),
    () => select(BEFORE_RESTORE),
  );
}

export function setUser(user: User | null): void {
  if (user) sessionCopy.set(STORAGE_KEYS.user, JSON.stringify(user));
  else sessionCopy.remove(STORAGE_KEYS.user);
  update({ user });
}

/** Local balance change after a paid action (docs/product.md#states), until the next user reload. */
export function adjustBalance(delta: number): void {
  if (state.user) setUser({ ...state.user, accountBalance: state.user.accountBalance + delta });
}

export function setSettings(settings: Settings | null): void {
  update({ settings });
}

export function setPendingEmail(email: string | null): void {
  if (email) sessionCopy.set(PENDING_EMAIL_KEY, email);
  else sessionCopy.remove(PENDING_EMAIL_KEY);
  update({ pendingEmail: email });
}

export function setCurrentGame(game: Game | null): void {
  update({ currentGame: game });
}

/** docs/product.md#states: the session is not restored on /login or on any path containing 'auth'. */
export function shouldRestoreSession(pathname: string): boolean {
  return pathname.toLowerCase() !== '/login' && !/auth/i.test(pathname);
}

export const fetchUser = () => http.get<{ data: User }>('/user').then((body) => body.data);
export const fetchSettings = () =>
  http.get<{ data: Settings }>('/settings').then((body) => body.data);

/** The player confirms they are 18 or older (accounts made with Google are asked once). */
export async function confirmAge(): Promise<User> {
  const { data } = await http.post<{ data: User }>('/user/confirm-age', { ageConfirmed: true });
  setUser(data);
  return data;
}

/** Loads user and settings in parallel; any failure is ignored and the app carries on. */
export async function restoreSession(pathname: string): Promise<void> {
  if (!tokenStorage.get() || !shouldRestoreSession(pathname)) return;
  update({ restoring: true });
  const [user, settings] = await Promise.allSettled([fetchUser(), fetchSettings()]);
  if (user.status === 'fulfilled') setUser(user.value);
  if (settings.status === 'fulfilled') setSettings(settings.value);
  update({ restoring: false });
}

/** After login or e-mail validation: keep the token, then load what the app needs. */
export async function signIn(token: string, user?: User): Promise<void> {
  tokenStorage.set(token);
  const [loadedUser, settings] = await Promise.all([
    user ? Promise.resolve(user) : fetchUser(),
    fetchSettings().catch(() => null),
  ]);
  setUser(loadedUser);
  if (settings) setSettings(settings);
}

function forget(): void {
  tokenStorage.clear();
  clearPrefetched();
  // The saved copies of API reads were the previous player's.
  forgetSavedReads();
  setUser(null);
  update({ currentGame: null, loggingOut: false });
  resumeAfterSignOut();
}

/** How long Log out waits for the server before logging out locally anyway. */
export const LOGOUT_TIMEOUT_MS = 5_000;

/**
 * docs/product.md#states Logout, after asking the server to revoke this token (so a copy of it stops working
 * too), once the calls already on their way have finished. The local logout happens whatever
 * the server says, or if it does not answer in time.
 */
export async function logout(): Promise<void> {
  // A second press while the first is under way would only ask the server again.
  if (state.loggingOut) return;
  update({ loggingOut: true });
  if (tokenStorage.get()) {
    await quietForSignOut(LOGOUT_TIMEOUT_MS);
    // The browser's own push lookups have no timeout of their own.
    await beforeDeadline(forgetPushSubscription(), LOGOUT_TIMEOUT_MS, () => undefined);
    await http
      .post('/auth/logout', undefined, { timeoutMs: LOGOUT_TIMEOUT_MS, ignoreUnauthorized: true })
      .catch(() => undefined);
  }
  endSessionLocally();
}

/**
 * On a shared phone the next person must not get this account's push notifications: the
 * server forgets this browser's subscription and the browser drops it (turning them on again
 * after the next login makes a new one). Nothing to do where pushes were never turned on.
 */
async function forgetPushSubscription(): Promise<void> {
  try {
    if (!('serviceWorker' in navigator)) return;
    const registration = await navigator.serviceWorker.getRegistration();
    const subscription = await registration?.pushManager?.getSubscription();
    if (!subscription) return;
    await http.delete(
      '/notification/push/subscription',
      { endpoint: subscription.endpoint },
      { timeoutMs: LOGOUT_TIMEOUT_MS, ignoreUnauthorized: true },
    );
    await subscription.unsubscribe();
  } catch {
    // Logging out goes on without this: the server drops a dead subscription on its first push.
  }
}

/** docs/product.md#states Logout on this device only: for when the server has already ended the session. */
export function endSessionLocally(): void {
  forget();
  navigate('/login', { replace: true });
}

setUnauthorizedHandler(forget);

export function tokenStorageHasToken(): boolean {
  return tokenStorage.get() !== null;
}
