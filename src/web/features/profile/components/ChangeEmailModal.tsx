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
import { useSchemaForm, type Validator } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { useEffect, useRef } from 'react';
import { useCancelEmailChange } from '../api/cancel-email-change.ts';
import { useConfirmEmailChange } from '../api/confirm-email-change.ts';
import { useUpdateUser } from '../api/update-user.ts';

export const pendingEmailText = (email: string) =>
  `We sent a code to ${email} — enter it to finish.`;

type Failure = { success: false; error: { issues: { path: string[]; message: string }[] } };
const failure = (path: string, message: string): Failure => ({
  success: false,
  error: { issues: [{ path: [path], message }] },
});

/** The new address (its own message when empty, then the shared schema's), then the proof. */
function requestValidator(hasSetPassword: boolean): Validator<{ email: string; proof: string }> {
  return {
    safeParse(input) {
      const { email, proof } = input as { email: string; proof: string };
      if (email.trim() === '') return failure('email', 'Enter your new e-mail address');
      const parsed = emailSchema.safeParse(email);
      if (!parsed.success)
        return failure('email', parsed.error.issues[0]?.message ?? ERROR_MESSAGES.generic);
      if (proof === '')
        return failure('proof', hasSetPassword ? STEP_UP_PASSWORD_MESSAGE : STEP_UP_CODE_MESSAGE);
      return { success: true, data: { email: parsed.data, proof } };
    },
  };
}

const codeValidator: Validator<string> = {
  safeParse(input) {
    const { code } = input as { code: string };
    return /^\d{6}$/.test(code)
      ? { success: true, data: code }
      : failure('code', STEP_UP_CODE_MESSAGE);
  },
};

const NO_REQUEST = { email: '', proof: '' };
const NO_CODE = { code: '' };

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
  const request = useSchemaForm({
    schema: requestValidator(hasSetPassword),
    initial: NO_REQUEST,
    report: 'first',
  });
  const confirmation = useSchemaForm({ schema: codeValidator, initial: NO_CODE, report: 'first' });
  const update = useUpdateUser();
  const confirm = useConfirmEmailChange();
  const cancel = useCancelEmailChange();
  const emailRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  // Focus starts on the step's first field, and moves to the code field when the first step
  // succeeds (the form the focus was in is gone), or back when the player starts over.
  useEffect(() => {
    if (!open) return;
    (pendingEmail ? codeRef : emailRef).current?.focus();
  }, [open, pendingEmail]);

  function close() {
    request.reset(NO_REQUEST);
    confirmation.reset(NO_CODE);
    onClose();
  }

  const requestChange = request.handleSubmit(({ email, proof }) =>
    update.mutate(hasSetPassword ? { email, currentPassword: proof } : { email, code: proof }, {
      onSuccess: (result) => {
        toast.success(result.message);
        request.set('proof', '');
      },
      onError: (caught) => request.setError('proof', errorMessage(caught, ERROR_MESSAGES.generic)),
    }),
  );

  const confirmChange = confirmation.handleSubmit((code) =>
    confirm.mutate(code, {
      onSuccess: (result) => {
        toast.success(result.message);
        close();
      },
      onError: (caught) =>
        confirmation.setError('code', errorMessage(caught, ERROR_MESSAGES.generic)),
    }),
  );

  function cancelChange() {
    cancel.mutate(undefined, {
      onSuccess: (result) => {
        toast.success(result.message);
        confirmation.reset(NO_CODE);
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
        <form
          ref={confirmation.formRef}
          noValidate
          onSubmit={confirmChange}
          className="flex flex-col gap-4"
        >
          <Field
            ref={codeRef}
            label="Code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            {...confirmation.field('code')}
            onChange={(event) =>
              confirmation.set('code', event.target.value.replace(/\D/g, '').slice(0, 6))
            }
          />
          <Button type="submit" loading={confirm.isPending} className="w-full">
            Confirm new e-mail
          </Button>
          <Button variant="ghost" onClick={cancelChange} loading={cancel.isPending}>
            Use a different address
          </Button>
        </form>
      ) : (
        <form
          ref={request.formRef}
          noValidate
          onSubmit={requestChange}
          className="flex flex-col gap-4"
        >
          <Field
            ref={emailRef}
            label="New e-mail"
            type="email"
            autoComplete="email"
            {...request.field('email')}
          />
          <StepUpField
            name="proof"
            hasSetPassword={hasSetPassword}
            value={request.values.proof}
            onChange={(value) => request.set('proof', value)}
            error={request.errors.proof}
          />
          <Button type="submit" loading={update.isPending} className="w-full">
            Send code to new address
          </Button>
        </form>
      )}
    </Modal>
  );
}
