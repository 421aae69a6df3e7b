import { ERROR_MESSAGES } from '@shared/messages.ts';
import { deleteUserSchema } from '@shared/schemas/users.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { endSessionLocally } from '@web/lib/session.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { useDeleteUser } from '../api/delete-user.ts';

export function DeleteAccount() {
  const [open, setOpen] = useState(false);
  const form = useSchemaForm({
    schema: deleteUserSchema,
    initial: { password: '' },
    report: 'first',
  });
  const remove = useDeleteUser();

  const onSubmit = form.handleSubmit(({ password }) =>
    remove.mutate(password, {
      onSuccess: (result) => {
        toast.success(result.message);
        // Deletion already ended every session on the server.
        endSessionLocally();
      },
      onError: (caught) =>
        form.setError('password', errorMessage(caught, ERROR_MESSAGES.genericOops)),
    }),
  );

  return (
    <Card className="border-danger/40">
      <h2 className="text-lg font-bold text-danger">Delete account</h2>
      <p className="mt-1 mb-4 text-sm text-muted">
        Your personal details are erased and you are signed out everywhere. Your wallet must be
        empty first; payment records are kept, as the law requires.
      </p>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete my account
      </Button>
      <Modal
        open={open}
        onClose={() => {
          setOpen(false);
          form.reset({ password: '' });
        }}
        title="Delete your account?"
        description="This cannot be undone. Enter your password to confirm."
      >
        <form ref={form.formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <Field
            label="Password"
            type="password"
            autoComplete="current-password"
            {...form.field('password')}
          />
          <Button type="submit" variant="danger" loading={remove.isPending} className="w-full">
            Delete permanently
          </Button>
        </form>
      </Modal>
    </Card>
  );
}
