import type { SchemaForm } from '@web/lib/schema-form.ts';
import {
  type FormHTMLAttributes,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useState,
} from 'react';

/** What the form says between a press on submit and the app's taking over the page. */
export const QUEUED_NOTE = 'Still loading: this is sent as soon as the page is ready.';

interface LiveFormProps<V extends Record<string, unknown>>
  extends FormHTMLAttributes<HTMLFormElement> {
  /** The form's useSchemaForm: its ref, and the values typed before React took over go to it. */
  form: Pick<SchemaForm<V, unknown>, 'formRef' | 'values' | 'set'>;
  children: ReactNode;
}

/**
 * A form of a prerendered page (the login, sign-up, password and support forms), which the
 * player can see, fill in and send before React has taken the page over:
 *
 * - its fields are plain inputs from the first paint; what was typed into them is adopted into
 *   the form's values once React runs (hydration keeps what the inputs hold, not their state);
 * - a submit before then is held by the boot script (shared/boot-script.ts marks the form
 *   `data-queued`), which shows the note below at once, and is sent here, with the adopted
 *   values, as soon as React has taken over.
 *
 * `data-live` on the form says React has taken it over (the browser tests wait for it).
 */
export function LiveForm<V extends Record<string, unknown>>({
  form,
  className = '',
  children,
  ...rest
}: LiveFormProps<V>) {
  const { formRef, values, set } = form;
  const [replay, setReplay] = useState(false);

  // Before the first paint after hydration, so no render in between puts the empty state back
  // into an input the player has already filled in.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when React takes the form over.
  useLayoutEffect(() => {
    const element = formRef.current;
    if (!element) return;
    for (const [name, value] of Object.entries(values)) {
      const control = element.elements.namedItem(name);
      if (control instanceof HTMLInputElement && control.type === 'checkbox') {
        if (control.checked !== value) set(name, control.checked as V[string]);
      } else if (
        (control instanceof HTMLInputElement ||
          control instanceof HTMLTextAreaElement ||
          control instanceof HTMLSelectElement) &&
        typeof value === 'string' &&
        control.value !== value
      ) {
        set(name, control.value as V[string]);
      }
    }
    element.setAttribute('data-live', '');
    if (element.hasAttribute('data-queued')) setReplay(true);
  }, []);

  // After the render that holds the adopted values, so the submit checks and sends those.
  useEffect(() => {
    if (!replay) return;
    setReplay(false);
    formRef.current?.removeAttribute('data-queued');
    formRef.current?.requestSubmit();
  }, [replay, formRef]);

  return (
    <form ref={formRef} noValidate data-queue-submit="" className={`group ${className}`} {...rest}>
      {children}
      <p
        role="status"
        className="hidden items-start justify-center gap-2 text-sm text-white/85 group-data-queued:flex"
      >
        <span
          aria-hidden="true"
          className="mt-0.5 size-4 shrink-0 animate-spin rounded-full border-2 border-accent/25 border-t-accent"
        />
        {QUEUED_NOTE}
      </p>
    </form>
  );
}
