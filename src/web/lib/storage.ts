import { STORAGE_KEYS } from '@shared/constants.ts';

/** Storage can throw (private mode, quota, disabled cookies); the app must keep working. */
function safely<T>(action: () => T, fallback: T): T {
  try {
    return action();
  } catch {
    return fallback;
  }
}

export const tokenStorage = {
  get: () => safely(() => localStorage.getItem(STORAGE_KEYS.token), null),
  set: (token: string) => safely(() => localStorage.setItem(STORAGE_KEYS.token, token), undefined),
  clear: () => safely(() => localStorage.removeItem(STORAGE_KEYS.token), undefined),
};

export const sessionCopy = {
  get: (key: string) => safely(() => sessionStorage.getItem(key), null),
  set: (key: string, value: string) => safely(() => sessionStorage.setItem(key, value), undefined),
  remove: (key: string) => safely(() => sessionStorage.removeItem(key), undefined),
};

/** A yes/no kept on this device (data saver, the install prompt's state). */
export const storedFlag = {
  get: (key: string) => safely(() => localStorage.getItem(key) === '1', false),
  set: (key: string, on: boolean) =>
    safely(() => (on ? localStorage.setItem(key, '1') : localStorage.removeItem(key)), undefined),
};
