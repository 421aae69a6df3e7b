import { ERROR_MESSAGES } from '@shared/messages.ts';
import {
  emailSchema,
  STEP_UP_CODE_MESSAGE,
  STEP_UP_PASSWORD_MESSAGE,
} from '@shared/schemas/users.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { StepUpField } from '@web/components/ui/StepUpField.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useCancelEmailChange } from '../api/cancel-email-change.ts';
import { useConfirmEmailChange } from '../api/confirm-email-change.ts';
import { useUpdateUser } from '../api/update-user.ts';

export const pendingEmailText = (email: string) =>
  `We sent a code to ${email} — enter it to finish.`;

/**
 * Changing the e-mail in two steps: the new address with the owner's proof (current password,
 * or a code e-mailed to the current address), then the code sent to the new address. Until
 * that code is entered the account keeps its current e-mail.
 */
export function ChangeEmailModal({
  open,
  onClose,
  hasSetPassword,
  pendingEmail,
}: {
  open: boolean;
  onClose: () => void;
  hasSetPassword: boolean;
  pendingEmail: string | null;
}) {
  const [email, setEmail] = useState('');
  const [proof, setProof] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ email?: string; proof?: string; code?: string }>({});
  const update = useUpdateUser();
  const confirm = useConfirmEmailChange();
  const cancel = useCancelEmailChange();
  const emailRef = useRef<HTMLInputElement>(null);
  const proofRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  // Focus starts on the step's first field, and moves to the code field when the first step
  // succeeds (the form the focus was in is gone), or back when the player starts over.
  useEffect(() => {
    if (!open) return;
    (pendingEmail ? codeRef : emailRef).current?.focus();
  }, [open, pendingEmail]);

  function close() {
    setEmail('');
    setProof('');
    setCode('');
    setErrors({});
    onClose();
  }

  function requestChange(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (email.trim() === '') {
      setErrors({ email: 'Enter your new e-mail address' });
      emailRef.current?.focus();
      return;
    }
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setErrors({ email: parsed.error.issues[0]?.message ?? ERROR_MESSAGES.generic });
      emailRef.current?.focus();
      return;
    }
    if (proof === '') {
      setErrors({
        proof: hasSetPassword ? STEP_UP_PASSWORD_MESSAGE : STEP_UP_CODE_MESSAGE,
      });
      proofRef.current?.focus();
      return;
    }
    update.mutate(
      hasSetPassword
        ? { email: parsed.data, currentPassword: proof }
        : { email: parsed.data, code: proof },
      {
        onSuccess: (result) => {
          toast.success(result.message);
          setProof('');
          setErrors({});
        },
        onError: (caught) => {
          setErrors({ proof: errorMessage(caught, ERROR_MESSAGES.generic) });
          proofRef.current?.focus();
        },
      },
    );
  }

  function confirmChange(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setErrors({ code: STEP_UP_CODE_MESSAGE });
      codeRef.current?.focus();
      return;
    }
    confirm.mutate(code, {
      onSuccess: (result) => {
        toast.success(result.message);
        close();
      },
      onError: (caught) => {
        setErrors({ code: errorMessage(caught, ERROR_MESSAGES.generic) });
        codeRef.current?.focus();
      },
    });
  }

  function cancelChange() {
    cancel.mutate(undefined, {
      onSuccess: (result) => {
        toast.success(result.message);
        setCode('');
        setErrors({});
      },
      onError: (caught) => toast.error(errorMessage(caught, ERROR_MESSAGES.generic)),
    });
  }

  return (
    <Modal
      open={open}
      onClose={close}
      title="Change e-mail"
      description={
        pendingEmail
          ? pendingEmailText(pendingEmail)
          : 'We will send a code to the new address. Your e-mail changes once you enter it.'
      }
    >
      {pendingEmail ? (
        <form noValidate onSubmit={confirmChange} className="flex flex-col gap-4">
          <Field
            ref={codeRef}
            label="Code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(event) => {
              setCode(event.target.value.replace(/\D/g, '').slice(0, 6));
              setErrors({});
            }}
            error={errors.code}
          />
          <Button type="submit" loading={confirm.isPending} className="w-full">
            Confirm new e-mail
          </Button>
          <Button variant="ghost" onClick={cancelChange} loading={cancel.isPending}>
            Use a different address
          </Button>
        </form>
      ) : (
        <form noValidate onSubmit={requestChange} className="flex flex-col gap-4">
          <Field
            ref={emailRef}
            label="New e-mail"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setErrors({});
            }}
            error={errors.email}
          />
          <StepUpField
            ref={proofRef}
            hasSetPassword={hasSetPassword}
            value={proof}
            onChange={(value) => {
              setProof(value);
              setErrors({});
            }}
            error={errors.proof}
          />
          <Button type="submit" loading={update.isPending} className="w-full">
            Send code to new address
          </Button>
        </form>
      )}
    </Modal>
  );
}
