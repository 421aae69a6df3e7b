import { type FormEvent, useRef, useState } from 'react';
import type { z } from 'zod';

/** Field errors keyed by the issue's path, e.g. 'title' or 'features.gamesPerDay'. */
export type FieldErrors = Partial<Record<string, string>>;

/** The first message for each field, in the order the schema reported them. */
export function issuesToErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || 'form';
    errors[key] ??= issue.message;
  }
  return errors;
}

interface SchemaFormOptions<V, S extends z.ZodType> {
  /** A shared schema from src/shared/schemas: the server validates with the same one. */
  schema: S;
  initial: V;
  /** Turns what the inputs hold (strings) into what the API takes (numbers, ISO dates). */
  toInput: (values: V) => unknown;
}

/**
 * Form state validated by one of the shared zod schemas. Errors show after the first submit
 * and then follow every keystroke; a failed submit focuses the first invalid field (matched
 * by its `name`).
 */
export function useSchemaForm<V extends Record<string, unknown>, S extends z.ZodType>({
  schema,
  initial,
  toInput,
}: SchemaFormOptions<V, S>) {
  const [values, setValues] = useState<V>(initial);
  const [submitted, setSubmitted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const result = schema.safeParse(toInput(values));
  const errors: FieldErrors = submitted && !result.success ? issuesToErrors(result.error) : {};

  function set<K extends keyof V>(name: K, value: V[K]) {
    setValues((current) => ({ ...current, [name]: value }));
  }

  function handleSubmit(onValid: (data: z.output<S>) => void) {
    return (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setSubmitted(true);
      if (result.success) {
        onValid(result.data);
        return;
      }
      const first = Object.keys(issuesToErrors(result.error))[0];
      const field = first ? formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`) : null;
      field?.focus();
    };
  }

  function reset(next: V) {
    setValues(next);
    setSubmitted(false);
  }

  return { values, set, errors, handleSubmit, reset, formRef, valid: result.success };
}

/** '' stays undefined so the schema says "… must be a number"; anything else is Number(). */
export function numberOrUndefined(value: string): number | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}
