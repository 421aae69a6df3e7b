import { ERROR_MESSAGES, RULE_MESSAGES } from '@shared/messages.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { type FormEvent, useEffect, useState } from 'react';
import { sendSignupCode, verifyEmail } from '../api/email-verification.ts';

interface EmailCodeModalProps {
  email: string;
  open: boolean;
  onClose: () => void;
  onVerified: () => void;
}

/** Signup's Verify button: sends a code on open, then checks what the player types. */
export function EmailCodeModal({ email, open, onClose, onVerified }: EmailCodeModalProps) {
  const [code, setCode] = useState('');
  const [sending, setSending] = useState(false);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function send() {
    setSending(true);
    setError(null);
    try {
      toast.success(await sendSignupCode(email));
    } catch (caught) {
      setError(errorMessage(caught, ERROR_MESSAGES.verifyForgotReset));
    } finally {
      setSending(false);
    }
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: a code is sent once each time the modal opens.
  useEffect(() => {
    if (!open) return;
    setCode('');
    void send();
  }, [open]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      setError(RULE_MESSAGES.otpFormat);
      return;
    }
    setChecking(true);
    try {
      toast.success(await verifyEmail(email, code.trim()));
      onVerified();
    } catch (caught) {
      setError(errorMessage(caught, ERROR_MESSAGES.verifyForgotReset));
    } finally {
      setChecking(false);
    }
  }

  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Verify your e-mail"
      description={`We sent a 6-digit code to ${email}. It expires in 10 minutes.`}
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <Field
          label="Verification code"
          name="otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(event) => {
            setCode(event.target.value.replace(/\D/g, ''));
            setError(null);
          }}
          error={error}
          className="[&_input]:text-center [&_input]:text-2xl [&_input]:tracking-[0.5em]"
        />
        <Button type="submit" loading={checking} className="w-full">
          Verify code
        </Button>
        <Button variant="ghost" onClick={() => void send()} loading={sending}>
          Send a new code
        </Button>
      </form>
    </Modal>
  );
}
