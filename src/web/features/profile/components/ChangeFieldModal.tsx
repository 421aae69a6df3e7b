import { ERROR_MESSAGES } from '@shared/messages.ts';
import { normalisePhone } from '@shared/phone.ts';
import { handleSchema, phoneSchema } from '@shared/schemas/users.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { type FormEvent, useState } from 'react';
import { z } from 'zod';
import { useUpdateUser } from '../api/update-user.ts';

/** Fields that change without the owner's proof; the e-mail has its own modal. */
export type EditableField = 'phoneNumber' | 'username';

const FIELDS: Record<
  EditableField,
  {
    title: string;
    label: string;
    type: string;
    autoComplete: string;
    required: string;
    schema: z.ZodType<string>;
    prepare?: (value: string) => string;
    note?: string;
  }
> = {
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

export function ChangeFieldModal({
  field,
  onClose,
}: {
  field: EditableField | null;
  onClose: () => void;
}) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateUser();
  const config = field ? FIELDS[field] : null;

  function close() {
    setValue('');
    setError(null);
    onClose();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!field || !config) return;
    if (value.trim() === '') {
      setError(config.required);
      return;
    }
    const parsed = z
      .object({ value: config.schema })
      .safeParse({ value: config.prepare?.(value) ?? value });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? ERROR_MESSAGES.generic);
      return;
    }
    update.mutate(
      { [field]: parsed.data.value },
      {
        onSuccess: (result) => {
          toast.success(result.message);
          close();
        },
        onError: (caught) => setError(errorMessage(caught, ERROR_MESSAGES.generic)),
      },
    );
  }

  return (
    <Modal
      open={field !== null}
      onClose={close}
      title={config?.title ?? ''}
      description={config?.note}
    >
      {config ? (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <Field
            label={config.label}
            type={config.type}
            autoComplete={config.autoComplete}
            value={value}
            onChange={(event) => {
              setValue(event.target.value);
              setError(null);
            }}
            error={error}
          />
          <Button type="submit" loading={update.isPending} className="w-full">
            Save
          </Button>
        </form>
      ) : null}
    </Modal>
  );
}
