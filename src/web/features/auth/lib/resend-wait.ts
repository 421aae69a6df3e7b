import { sessionCopy } from '@web/lib/storage.ts';

/**
 * The server sends at most one verification link a minute per address (docs/product.md#accounts,
 * 60 s resend cooldown), counted from the sign-up's own e-mail too, and answers alike inside it.
 * The verify page waits that minute out in view instead of letting a press seem to send a link
 * that never comes. Kept in sessionStorage, across reloads.
 */
export const RESEND_WAIT_MS = 60_000;

export const resendWaitKey = (email: string) => `verifyEmailResendAt:${email.toLowerCase()}`;

/** A link just went to `email` (a sign-up or a resend): the next may be asked for in a minute. */
export function holdResend(email: string): number {
  const until = Date.now() + RESEND_WAIT_MS;
  sessionCopy.set(resendWaitKey(email), String(until));
  return until;
}
