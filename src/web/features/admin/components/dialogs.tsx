import {
  Button,
  type ButtonVariant,
  buttonBase,
  buttonStyles,
} from '@web/components/ui/Button.tsx';
import { Field } from '@web/components/ui/Field.tsx';
import { Modal } from '@web/components/ui/Modal.tsx';
import { useSchemaForm } from '@web/lib/schema-form.ts';
import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import type { z } from 'zod';

/**
 * Moves focus into a dialog's content once the dialog is open. The dialog's own showModal()
 * runs after its children mount and would focus the close button, so this waits a frame.
 */
export function useFocusOnOpen(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const frame = requestAnimationFrame(() => ref.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [ref]);
}

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description?: string;
  children?: ReactNode;
  confirmLabel: string;
  variant?: ButtonVariant;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** "Are you sure?" for a destructive or money-moving action; Cancel has the focus. */
export function ConfirmDialog({
  open,
  title,
  description,
  children,
  confirmLabel,
  variant = 'danger',
  busy = false,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Modal
      open={open}
      title={title}
      description={description}
      onClose={onClose}
      dismissible={!busy}
    >
      <ConfirmBody
        confirmLabel={confirmLabel}
        variant={variant}
        busy={busy}
        onConfirm={onConfirm}
        onClose={onClose}
      >
        {children}
      </ConfirmBody>
    </Modal>
  );
}

function ConfirmBody({
  children,
  confirmLabel,
  variant,
  busy,
  onConfirm,
  onClose,
}: Pick<
  ConfirmDialogProps,
  'children' | 'confirmLabel' | 'variant' | 'busy' | 'onConfirm' | 'onClose'
>) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  useFocusOnOpen(cancelRef);
  return (
    <div className="flex flex-col gap-5">
      {children ? <div className="text-sm text-white/85">{children}</div> : null}
      <DialogActions>
        <button
          ref={cancelRef}
          type="button"
          onClick={onClose}
          disabled={busy}
          className={`${buttonBase} ${buttonStyles.outline}`}
        >
          Cancel
        </button>
        <Button variant={variant} onClick={onConfirm} loading={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </div>
  );
}

/** Cancel on the left, the action on the right; stacked full-width on a phone. */
export function DialogActions({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end [&>button]:w-full sm:[&>button]:w-auto">
      {children}
    </div>
  );
}

type ReasonSchema = z.ZodType<{ reason: string }, { reason: string }>;

interface ReasonDialogProps {
  open: boolean;
  title: string;
  description?: string;
  /** The shared schema the server checks the reason with (cancel, reject, suspend). */
  schema: ReasonSchema;
  label?: string;
  hint?: string;
  confirmLabel: string;
  variant?: ButtonVariant;
  busy?: boolean;
  children?: ReactNode;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}

/** A destructive action that needs a reason: the reason is validated before anything is sent. */
export function ReasonDialog({
  open,
  title,
  description,
  busy = false,
  onClose,
  ...form
}: ReasonDialogProps) {
  return (
    <Modal
      open={open}
      title={title}
      description={description}
      onClose={onClose}
      dismissible={!busy}
    >
      <ReasonForm busy={busy} onClose={onClose} {...form} />
    </Modal>
  );
}

function ReasonForm({
  schema,
  label = 'Reason',
  hint,
  confirmLabel,
  variant = 'danger',
  busy,
  children,
  onSubmit,
  onClose,
}: Omit<ReasonDialogProps, 'open' | 'title' | 'description'>) {
  const form = useSchemaForm({
    schema,
    initial: { reason: '' },
    toInput: (values) => values,
  });
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  useFocusOnOpen(fieldRef);
  return (
    <form
      ref={form.formRef}
      noValidate
      onSubmit={form.handleSubmit((data) => onSubmit(data.reason))}
      className="flex flex-col gap-5"
    >
      {children ? <div className="text-sm text-white/85">{children}</div> : null}
      <Field
        as="textarea"
        ref={fieldRef}
        label={label}
        hint={hint}
        rows={3}
        {...form.field('reason')}
      />
      <DialogActions>
        <Button variant="outline" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant={variant} loading={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </form>
  );
}
