import type { UseQueryResult } from '@tanstack/react-query';
import { Button } from '@web/components/ui/Button.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { PageHeader } from '@web/components/ui/PageHeader.tsx';
import { errorMessage } from '@web/lib/http.ts';
import { toast } from '@web/lib/toast.tsx';
import { Fragment, type ReactNode, useState } from 'react';
import { DialogActions } from './dialogs.tsx';
import { PlusIcon } from './PlusIcon.tsx';
import { LoadError, Loading } from './QueryStates.tsx';

interface EditableListPageProps<T extends { id: string }> {
  title: string;
  eyebrow: string;
  /** One record in words ('plan'): the button and dialog say "New plan", "Edit plan". */
  noun: string;
  /** Several ('plans'): "Loading plans", "We could not load the plans". */
  plural: string;
  query: UseQueryResult<T[]>;
  /** Shown when the list is empty. */
  empty: ReactNode;
  /** The records, each with a way to open its editor. */
  list: (rows: T[], edit: (row: T) => void) => ReactNode;
  /** The editor for one record (none: a new one); `done` closes the dialog. */
  form: (row: T | undefined, done: () => void) => ReactNode;
}

/**
 * A console page of records edited in a dialog (plans, categories): the list in its loading,
 * failed and empty states, a "New …" button, and the dialog holding the editor, opened afresh
 * for each record.
 */
export function EditableListPage<T extends { id: string }>({
  title,
  eyebrow,
  noun,
  plural,
  query,
  empty,
  list,
  form,
}: EditableListPageProps<T>) {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const close = () => setEditing(null);
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={title} eyebrow={eyebrow}>
        <Button onClick={() => setEditing('new')}>
          <PlusIcon /> New {noun}
        </Button>
      </PageHeader>
      {query.isPending ? (
        <Loading label={`Loading ${plural}`} />
      ) : query.isError ? (
        <LoadError
          error={query.error}
          what={`the ${plural}`}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : query.data.length === 0 ? (
        empty
      ) : (
        list(query.data, setEditing)
      )}
      <Modal
        open={editing !== null}
        title={editing === 'new' ? `New ${noun}` : `Edit ${noun}`}
        onClose={close}
      >
        {editing ? (
          <Fragment key={editing === 'new' ? 'new' : editing.id}>
            {form(editing === 'new' ? undefined : editing, close)}
          </Fragment>
        ) : null}
      </Modal>
    </div>
  );
}

/**
 * The options of an editor's save: on success the server's message (or "Plan saved") and the
 * dialog closes; a refusal shows as a toast and the editor stays open.
 */
export function closeWhenSaved(noun: string, done: () => void) {
  return {
    onSuccess: (result: { message?: string }) => {
      toast.success(result.message ?? `${noun[0]?.toUpperCase()}${noun.slice(1)} saved`);
      done();
    },
    onError: (error: unknown) => toast.error(errorMessage(error, `The ${noun} could not be saved`)),
  };
}

/** An editor's buttons: Cancel, which closes it, and its submit button (`children`). */
export function EditorActions({
  saving,
  onCancel,
  children,
}: {
  saving: boolean;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <DialogActions>
      <Button variant="outline" onClick={onCancel} disabled={saving}>
        Cancel
      </Button>
      <Button type="submit" loading={saving}>
        {children}
      </Button>
    </DialogActions>
  );
}
