import { sessionCopy } from '@web/lib/storage.ts';

/*
 * The address a player just signed up or reset a password with, handed to the login form so
 * they do not type it again. sessionStorage rather than the address bar,
 * which would leave it in the history and in server logs.
 */
const KEY = 'loginEmail';

export const loginEmail = {
  remember: (email: string) => sessionCopy.set(KEY, email),
  read: () => sessionCopy.get(KEY) ?? '',
  forget: () => sessionCopy.remove(KEY),
};
