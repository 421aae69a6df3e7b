import { ERROR_MESSAGES } from '@shared/messages.ts';
import { normalisePhone } from '@shared/phone.ts';
import { handleSchema, phoneSchema } from '@shared/schemas/users.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm, type Validator } from '@web/lib/schema-form.ts';
import { toast } from '@web/lib/toast.tsx';
import type { z } from 'zod';
import { useUpdateUser } from '../api/update-user.ts';

/** Fields that change without the owner's proof; the e-mail has its own modal. */
export type EditableField = 'phoneNumber' | 'username';

interface FieldConfig {
  title: string;
  label: string;
  type: string;
  autoComplete: string;
  required: string;
  schema: z.ZodType<string>;
  prepare?: (value: string) => string;
  note?: string;
}

const FIELDS: Record<EditableField, FieldConfig> = {
  phoneNumber: {
    title: 'Change phone number',
    label: 'New phone number',
    type: 'tel',
    autoComplete: 'tel',
    required: 'Enter your new phone number',
    schema: phoneSchema,
    prepare: normalisePhone,
  },
  username: {
    title: 'Change username',
    label: 'New username',
    type: 'text',
    autoComplete: 'username',
    required: 'Enter your new username',
    schema: handleSchema,
  },
};

/** Its own message when empty, then the shared schema's first word on what was typed. */
function newValueValidator(config: FieldConfig | null): Validator<string> {
  return {
    safeParse(input) {
      const { value } = input as { value: string };
      const fail = (message: string) =>
        ({ success: false, error: { issues: [{ path: ['value'], message }] } }) as const;
      // No field chosen: the modal is closed and has no form to submit.
      if (!config) return { success: false, error: { issues: [] } };
      if (value.trim() === '') return fail(config.required);
      const parsed = config.schema.safeParse(config.prepare?.(value) ?? value);
      return parsed.success
        ? { success: true, data: parsed.data }
        : fail(parsed.error.issues[0]?.message ?? ERROR_MESSAGES.generic);
    },
  };
}

export function ChangeFieldModal({
  field,
  onClose,
}: {
  field: EditableField | null;
  onClose: () => void;
}) {
  const update = useUpdateUser();
  const config = field ? FIELDS[field] : null;
  const form = useSchemaForm({
    schema: newValueValidator(config),
    initial: { value: '' },
    report: 'first',
  });

  function close() {
    form.reset({ value: '' });
    onClose();
  }

  const onSubmit = form.handleSubmit((value) => {
    if (!field) return;
    update.mutate(
      { [field]: value },
      {
        onSuccess: (result) => {
          toast.success(result.message);
          close();
        },
        onError: (caught) => form.setError('value', errorMessage(caught, ERROR_MESSAGES.generic)),
      },
    );
  });

  return (
    <Modal
      open={field !== null}
      onClose={close}
      title={config?.title ?? ''}
      description={config?.note}
    >
      {config ? (
        <form ref={form.formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <Field
            label={config.label}
            type={config.type}
            autoComplete={config.autoComplete}
            {...form.field('value')}
          />
          <Button type="submit" loading={update.isPending} className="w-full">
            Save
          </Button>
        </form>
      ) : null}
    </Modal>
  );
}
