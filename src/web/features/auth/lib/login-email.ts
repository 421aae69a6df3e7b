import { sessionCopy } from '@web/lib/storage.ts';

/*
 * The address a player just signed up, verified or reset a password with, handed to the login
 * form so they do not type it again. sessionStorage rather than the address bar,
 * which would leave it in the history and in server logs.
 */
const KEY = 'loginEmail';
/** Set only by a sign-up: the account still waits for its e-mail to be verified. */
const UNVERIFIED_KEY = 'loginEmailUnverified';

export const loginEmail = {
  remember: (email: string, options: { unverified?: boolean } = {}) => {
    sessionCopy.set(KEY, email);
    if (options.unverified) sessionCopy.set(UNVERIFIED_KEY, '1');
    else sessionCopy.remove(UNVERIFIED_KEY);
  },
  read: () => sessionCopy.get(KEY) ?? '',
  /** The address a sign-up on this tab left waiting for verification, if any. */
  unverified: () => (sessionCopy.get(UNVERIFIED_KEY) ? sessionCopy.get(KEY) : null),
  forget: () => {
    sessionCopy.remove(KEY);
    sessionCopy.remove(UNVERIFIED_KEY);
  },
};
