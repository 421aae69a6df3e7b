import { ERROR_MESSAGES, SIGNUP_MESSAGES } from '@shared/messages.ts';
import {
  newPasswordSchema,
  STEP_UP_CODE_MESSAGE,
  STEP_UP_PASSWORD_MESSAGE,
} from '@shared/schemas/users.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { StepUpField } from '@web/components/ui/StepUpField.tsx';
import { ApiError, errorMessage } from '@web/lib/http.ts';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import { z } from 'zod';
import { useUpdateUser } from '../api/update-user.ts';

/**
 * Current password only when the account has one (Google accounts may not, docs/product.md#validation); without
 * one, a code e-mailed to the account's address proves it is the owner setting it.
 */
function passwordFormSchema(hasSetPassword: boolean) {
  return z
    .object({
      currentPassword: hasSetPassword
        ? z.string().min(1, STEP_UP_PASSWORD_MESSAGE)
        : z.string().optional(),
      code: hasSetPassword
        ? z.string().optional()
        : z.string().regex(/^\d{6}$/, STEP_UP_CODE_MESSAGE),
      password: newPasswordSchema,
      confirmPassword: z.string().min(1, SIGNUP_MESSAGES.confirmPassword),
    })
    .refine((values) => values.password === values.confirmPassword, {
      message: SIGNUP_MESSAGES.mismatch,
      path: ['confirmPassword'],
    });
}

/** The server's refusals of the current password or code (wrong, missing, or too many tries). */
function isProofRefusal(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.code === 'PROOF_REFUSED' || error.code === 'TOO_MANY_REQUESTS';
}

const EMPTY = { currentPassword: '', code: '', password: '', confirmPassword: '' };

export function PasswordForm({ hasSetPassword }: { hasSetPassword: boolean }) {
  const update = useUpdateUser();
  const form = useSchemaForm({ schema: passwordFormSchema(hasSetPassword), initial: EMPTY });

  const onSubmit = form.handleSubmit((values) =>
    update.mutateAsync(values).then(
      (result) => {
        toast.success(result.message);
        form.reset(EMPTY);
      },
      (caught: unknown) => {
        const message = errorMessage(caught, ERROR_MESSAGES.generic);
        toast.error(message);
        // A refused proof (wrong, missing, too many tries) is also that field's error.
        if (isProofRefusal(caught))
          form.setError(hasSetPassword ? 'currentPassword' : 'code', message);
      },
    ),
  );

  return (
    <Card>
      <h2 className="text-lg font-bold">{hasSetPassword ? 'Change password' : 'Set a password'}</h2>
      <p className="mt-1 mb-4 text-sm text-muted">
        {hasSetPassword
          ? 'Changing your password signs you out everywhere else.'
          : 'You signed up with Google. Set a password to also log in with your e-mail.'}
      </p>
      <form
        ref={form.formRef}
        noValidate
        onSubmit={onSubmit}
        className="grid items-start gap-4 sm:grid-cols-3"
      >
        {hasSetPassword ? (
          <Field
            label="Current password"
            type="password"
            autoComplete="current-password"
            {...form.field('currentPassword')}
          />
        ) : (
          // In the current password's place: the proof first, the new password beside it.
          <StepUpField
            name="code"
            hasSetPassword={false}
            value={form.values.code}
            onChange={(value) => form.set('code', value)}
            error={form.errors.code}
          />
        )}
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          {...form.field('password')}
        />
        <Field
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          {...form.field('confirmPassword')}
        />
        <div className="sm:col-span-3">
          <Button type="submit" loading={update.isPending}>
            Save password
          </Button>
        </div>
      </form>
    </Card>
  );
}
