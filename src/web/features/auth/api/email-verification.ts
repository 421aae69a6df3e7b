import { http } from '@web/lib/http.ts';

/** Signup modal: send a code to an address before the account exists. */
export const sendSignupCode = (email: string) =>
  http.post<{ message: string }>('/auth/resend-token/email', { email }).then((res) => res.message);

export const verifyEmail = (email: string, otp: string) =>
  http.post<{ message: string }>('/auth/verify-email', { email, otp }).then((res) => res.message);

/** /verifyemail: a fresh link for an unverified account. */
export const resendVerificationLink = (email: string) =>
  http
    .post<{ message: string }>('/auth/resend-token', undefined, { query: { email } })
    .then((res) => res.message);

export const validateToken = (token: string) =>
  http
    .get<{ data: { access_token: string } }>(`/auth/validate-user/${encodeURIComponent(token)}`)
    .then((res) => res.data.access_token);
