import { ERROR_MESSAGES } from '@shared/messages.ts';
import { Button } from '@web/components/ui/Button.tsx';
import { Card } from '@web/components/ui/Card.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { useState } from 'react';
import { useLogoutAll } from '../api/logout-all.ts';

/** "Log out of all devices": for a lost phone or a token that may have leaked. */
export function LogoutEverywhere() {
  const [open, setOpen] = useState(false);
  const logoutAll = useLogoutAll();

  function confirm() {
    logoutAll.mutate(undefined, {
      onSuccess: (result) => toast.success(result.message),
      onError: (caught) => toast.error(errorMessage(caught, ERROR_MESSAGES.generic)),
    });
  }

  return (
    <Card>
      <h2 className="text-lg font-bold">Devices</h2>
      <p className="mt-1 mb-4 text-sm text-muted">
        Lost a phone, or logged in on someone else&apos;s? Log out everywhere, this device included.
      </p>
      <Button variant="outline" onClick={() => setOpen(true)}>
        Log out of all devices
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Log out of all devices?"
        description="Every device signed in to your account, this one included, will need to log in again."
        dismissible={!logoutAll.isPending}
      >
        <div className="flex flex-col gap-3 sm:flex-row-reverse">
          <Button onClick={confirm} loading={logoutAll.isPending} className="w-full sm:w-auto">
            Log out everywhere
          </Button>
          {/* Focus starts on the harmless choice, as in every confirmation. */}
          <Button
            variant="ghost"
            onClick={() => setOpen(false)}
            disabled={logoutAll.isPending}
            className="w-full sm:w-auto"
            data-autofocus
          >
            Cancel
          </Button>
        </div>
      </Modal>
    </Card>
  );
}
