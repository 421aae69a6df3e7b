import { ERROR_MESSAGES } from '@shared/messages.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { useEffect, useState } from 'react';
import { sendSignupCode } from '../api/email-verification.ts';
import { VerificationCodeField } from '../lib/credential-fields.tsx';
import { useEmailCodeForm } from '../lib/email-code-form.ts';

interface EmailCodeModalProps {
  email: string;
  open: boolean;
  onClose: () => void;
  onVerified: () => void;
}

/** Signup's Verify button: sends a code on open, then checks what the player types. */
export function EmailCodeModal({ email, open, onClose, onVerified }: EmailCodeModalProps) {
  const { form, checking, onSubmit } = useEmailCodeForm(email, onVerified);
  const [sending, setSending] = useState(false);

  /** Sends a code; the last message is cleared by whoever asks (a new code, a reopened modal). */
  async function send() {
    setSending(true);
    try {
      toast.success(await sendSignupCode(email));
    } catch (caught) {
      form.setError('otp', errorMessage(caught, ERROR_MESSAGES.verifyForgotReset));
    } finally {
      setSending(false);
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: a code is sent once each time the modal opens.
  useEffect(() => {
    if (!open) return;
    form.reset({ otp: '' });
    void send();
  }, [open]);

  const otp = form.field('otp');
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Verify your e-mail"
      description={`We sent a 6-digit code to ${email}. It expires in 10 minutes.`}
    >
      <form ref={form.formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <VerificationCodeField otp={otp} onDigits={(digits) => form.set('otp', digits)} />
        <Button type="submit" loading={checking} className="w-full">
          Verify code
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            form.reset(form.values);
            void send();
          }}
          loading={sending}
        >
          Send a new code
        </Button>
      </form>
    </Modal>
  );
}
