import { http } from './http.ts';

/**
 * Sensitive changes (e-mail, password, payout account) need the current password; an account
 * without one (Google sign-up) proves itself with a code e-mailed to its current address.
 */
export interface StepUpProof {
  currentPassword?: string;
  code?: string;
}

/** POST /user/step-up-code: e-mails the code to the account's current address. */
export const requestStepUpCode = () => http.post<{ message: string }>('/user/step-up-code');
