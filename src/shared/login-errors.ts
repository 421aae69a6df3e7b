/**
 * Why the server sent a browser to `/login?error=<code>`, and what the login page then says.
 * Anyone can send a player a /login link, so the page shows only these texts: a code it does not
 * know reads as LOGIN_ERROR_GENERIC, and the parameter itself is never shown.
 */
export const LOGIN_ERRORS = {
  google_unavailable: 'Google login is not available right now',
  google_cancelled: 'Google login was cancelled',
  google_failed: 'Google login failed, please try again',
  google_expired: 'Google login expired, please try again',
  google_email_unverified: 'Your Google e-mail address is not verified',
  google_email_taken: 'This e-mail is already used by an account linked to another Google account',
  google_account_failed: 'Could not create your account, please try again',
  google_operator: 'Operator accounts sign in with their password and authenticator code',
} as const;

export type LoginErrorCode = keyof typeof LOGIN_ERRORS;

export const LOGIN_ERROR_GENERIC = 'Something went wrong while signing you in. Please try again.';

/** Where the server sends a browser back to after a sign-in that failed for `code`. */
export const loginErrorPath = (code: LoginErrorCode) => `/login?error=${code}`;

/** The banner for the `error` parameter of /login: null without one. */
export function loginErrorText(parameter: string | null): string | null {
  if (!parameter) return null;
  return Object.hasOwn(LOGIN_ERRORS, parameter)
    ? LOGIN_ERRORS[parameter as LoginErrorCode]
    : LOGIN_ERROR_GENERIC;
}
