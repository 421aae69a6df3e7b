import {
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

interface FrameProps {
  label: string;
  error?: string | null;
  /** Shown under the control until there is an error, which takes its place. */
  hint?: ReactNode;
  /** Classes of the wrapper (its width in a row of fields). */
  className?: string;
  /** Classes added to the control itself (a taller textarea, a dimmed placeholder option). */
  controlClassName?: string;
  id?: string;
}

type InputProps = FrameProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, keyof FrameProps> & {
    as?: 'input';
    ref?: Ref<HTMLInputElement>;
  };
type SelectProps = FrameProps &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, keyof FrameProps> & {
    as: 'select';
    ref?: Ref<HTMLSelectElement>;
  };
type TextareaProps = FrameProps &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, keyof FrameProps> & {
    as: 'textarea';
    ref?: Ref<HTMLTextAreaElement>;
  };

export type FieldProps = InputProps | SelectProps | TextareaProps;

const CONTROL =
  'w-full rounded-xl border border-line bg-card px-4 text-base text-white placeholder:text-white/40 focus:border-accent focus:outline-none disabled:opacity-60 aria-[invalid=true]:border-danger';

interface Wiring {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * The one form field: a label, an input, a native select (the phone's own picker) or a
 * textarea, and under it the hint or the error, tied to the control by aria-describedby.
 */
export function Field(props: FieldProps) {
  const generatedId = useId();
  const id = props.id ?? generatedId;
  const { error, hint } = props;
  const noteId = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  const wiring: Wiring = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': noteId,
  };
  return (
    <div className={`flex flex-col gap-1.5 ${props.className ?? ''}`}>
      <label htmlFor={id} className="text-sm font-medium text-white/90">
        {props.label}
      </label>
      {control(props, wiring)}
      {error ? (
        <p id={noteId} className="text-sm text-danger">
          {error}
        </p>
      ) : hint ? (
        <p id={noteId} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function control(props: FieldProps, wiring: Wiring) {
  if (props.as === 'select') {
    const {
      as,
      label,
      error,
      hint,
      className,
      controlClassName = '',
      id,
      children,
      ...select
    } = props;
    return (
      <div className="relative">
        <select
          {...wiring}
          className={`${CONTROL} min-h-12 appearance-none py-2 pr-10 ${controlClassName}`}
          {...select}
        >
          {children}
        </select>
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="pointer-events-none absolute top-1/2 right-3 size-5 -translate-y-1/2 text-muted"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M6 9l6 6 6-6" />
        </svg>
      </div>
    );
  }
  if (props.as === 'textarea') {
    const { as, label, error, hint, className, controlClassName = '', id, ...textarea } = props;
    return (
      <textarea
        {...wiring}
        className={`${CONTROL} min-h-24 py-3 ${controlClassName}`}
        {...textarea}
      />
    );
  }
  const { as, label, error, hint, className, controlClassName = '', id, ...input } = props;
  return <input {...wiring} className={`${CONTROL} min-h-12 ${controlClassName}`} {...input} />;
}

interface CheckboxFieldProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'className'> {
  label: string;
  hint?: string;
  className?: string;
}

/** A checkbox with its label beside it and an optional line of explanation, 44 px tall to tap. */
export function CheckboxField({ label, hint, className = '', id, ...input }: CheckboxFieldProps) {
  const generatedId = useId();
  const fieldId = id ?? generatedId;
  const hintId = `${fieldId}-hint`;
  return (
    <div className={`flex min-h-11 items-start gap-3 ${className}`}>
      <input
        id={fieldId}
        type="checkbox"
        aria-describedby={hint ? hintId : undefined}
        className="mt-0.5 size-5 shrink-0 rounded"
        {...input}
      />
      <div className="flex flex-col">
        <label htmlFor={fieldId} className="text-sm font-medium text-white/90">
          {label}
        </label>
        {hint ? (
          <span id={hintId} className="text-xs text-muted">
            {hint}
          </span>
        ) : null}
      </div>
    </div>
  );
}
