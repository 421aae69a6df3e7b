import { type InputHTMLAttributes, type Ref, type TextareaHTMLAttributes, useId } from 'react';

interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string | null;
  hint?: string;
  ref?: Ref<HTMLTextAreaElement>;
}

/** Labelled textarea with hint and error on aria-describedby (the TextField of long text). */
export function TextAreaField({
  label,
  error,
  hint,
  className = '',
  id,
  ...textarea
}: TextAreaFieldProps) {
  const generatedId = useId();
  const fieldId = id ?? generatedId;
  const errorId = `${fieldId}-error`;
  const hintId = `${fieldId}-hint`;
  const describedBy = [error ? errorId : null, hint && !error ? hintId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={fieldId} className="text-sm font-medium text-white/90">
        {label}
      </label>
      <textarea
        id={fieldId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className="min-h-24 w-full rounded-xl border border-line bg-card px-4 py-3 text-base text-white placeholder:text-white/40 focus:border-accent focus:outline-none aria-[invalid=true]:border-danger"
        {...textarea}
      />
      {hint && !error ? (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: string;
  hint?: string;
}

/** A checkbox with its label and an optional line of explanation, 44 px tall to tap. */
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
