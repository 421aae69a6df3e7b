import { ERROR_MESSAGES } from '@shared/messages.ts';
import { verifyEmailSchema } from '@shared/schemas/auth.ts';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { verifyEmail } from '../api/email-verification.ts';

/** The server's own check of the code (the e-mail is the form's, not the player's to type). */
const codeSchema = verifyEmailSchema.pick({ otp: true });

/**
 * The form of an e-mailed code for `email`, as sign-up's modal and /verifyemail ask for it: on
 * submit the server checks the code, and its refusal becomes the field's error.
 */
export function useEmailCodeForm(email: string, onVerified: () => void) {
  const form = useSchemaForm({ schema: codeSchema, initial: { otp: '' }, report: 'submit' });
  const [checking, setChecking] = useState(false);

  async function check(otp: string) {
    setChecking(true);
    try {
      toast.success(await verifyEmail(email, otp));
      onVerified();
    } catch (caught) {
      form.setError('otp', errorMessage(caught, ERROR_MESSAGES.verifyForgotReset));
    } finally {
      setChecking(false);
    }
  }

  return { form, checking, onSubmit: form.handleSubmit((body) => void check(body.otp)) };
}
