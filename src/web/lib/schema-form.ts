import { type FormEvent, useCallback, useRef, useState } from 'react';

/** Field errors keyed by the issue's path, e.g. 'title' or 'features.gamesPerDay'. */
export type FieldErrors = Partial<Record<string, string>>;

interface Issue {
  path: ReadonlyArray<PropertyKey>;
  message: string;
}

/**
 * What the form checks its values with: a shared zod schema from src/shared/schemas fits as it
 * is (the server validates with the same one). The first screen's forms pass a few plain
 * checks of this shape instead, which keeps zod out of the login bundle.
 */
export interface Validator<O> {
  safeParse(
    input: unknown,
  ): { success: true; data: O } | { success: false; error: { issues: ReadonlyArray<Issue> } };
}

/** The first message for each field, in the order the schema reported them. */
export function issuesToErrors(error: { issues: ReadonlyArray<Issue> }): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || 'form';
    errors[key] ??= issue.message;
  }
  return errors;
}

interface SchemaFormOptions<V, O> {
  schema: Validator<O>;
  initial: V;
  /** Turns what the inputs hold (strings) into what the API takes (numbers, ISO dates). */
  toInput?: (values: V) => unknown;
  /**
   * 'all' (the console): every error shows after the first submit and follows each keystroke.
   * 'first' (the player's forms, docs/product.md#validation): a submit shows only the first
   * problem in the form's order, and editing that field clears it until the next submit.
   * 'submit' (the wallet's forms): a submit shows every problem at once, and editing a field
   * clears its own until the next submit.
   * 'live' (a filter applied on submit, like the dashboard's range): every error shows as soon
   * as the values break a rule, before any submit.
   */
  report?: 'all' | 'first' | 'submit' | 'live';
}

/**
 * The one way to build a form: values checked by a validator (a shared zod schema), errors per
 * field, and a failed submit that moves the focus to the first invalid field (found by its
 * `name` inside `formRef`).
 */
export function useSchemaForm<V extends Record<string, unknown>, O>({
  schema,
  initial,
  toInput = (values) => values,
  report = 'all',
}: SchemaFormOptions<V, O>) {
  const [values, setValues] = useState<V>(initial);
  const [submitted, setSubmitted] = useState(false);
  // What the last submit reported ('first' and 'submit'), less the fields edited since.
  const [reported, setReported] = useState<FieldErrors>({});
  // A field the server refused (a wrong current password), until that field is edited.
  const [refused, setRefused] = useState<FieldErrors>({});
  const formRef = useRef<HTMLFormElement>(null);
  const result = schema.safeParse(toInput(values));
  const allErrors = result.success ? {} : issuesToErrors(result.error);
  const shown =
    report === 'live' ? allErrors : report === 'all' ? (submitted ? allErrors : {}) : reported;
  const errors = { ...shown, ...refused };

  // Stable, so an effect can fill a field in (a remembered e-mail) without running again.
  const set = useCallback(<K extends keyof V>(name: K, value: V[K]) => {
    setValues((current) => ({ ...current, [name]: value }));
    setReported((current) => without(current, name as string));
    setRefused((current) => without(current, name as string));
  }, []);

  const focus = (name: string) =>
    formRef.current?.querySelector<HTMLElement>(`[name="${name}"]`)?.focus();

  /** Shows the server's refusal of one field on it, and moves the focus there. */
  function setError(name: keyof V & string, message: string) {
    setRefused({ [name]: message });
    focus(name);
  }

  /**
   * The props that wire a text input (or select, or textarea) to one value. `path` is where the
   * schema reports that value's errors when `toInput` nests it ('features.gamesPerDay'): the
   * control is named after it, so a failed submit can focus it.
   */
  function field<K extends keyof V & string>(name: K, path: string = name) {
    return {
      name: path,
      value: values[name] as string,
      onChange: (event: { target: { value: string } }) => set(name, event.target.value as V[K]),
      error: errors[path],
    };
  }

  /** The props that wire a checkbox to one boolean value (`path` as for `field`). */
  function checkbox<K extends keyof V & string>(name: K, path: string = name) {
    return {
      name: path,
      checked: values[name] as boolean,
      onChange: (event: { target: { checked: boolean } }) =>
        set(name, event.target.checked as V[K]),
    };
  }

  function handleSubmit(onValid: (data: O) => void) {
    return (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setSubmitted(true);
      if (result.success) {
        // A new attempt: no message of the last one stays (a rule that now passes without an
        // edit, a server refusal the server will repeat if it still stands).
        setReported({});
        setRefused({});
        onValid(result.data);
        return;
      }
      const [first] = Object.entries(allErrors);
      if (report === 'first') setReported(first ? { [first[0]]: first[1] } : {});
      if (report === 'submit') setReported(allErrors);
      if (first) focus(first[0]);
    };
  }

  function reset(next: V) {
    setValues(next);
    setSubmitted(false);
    setReported({});
    setRefused({});
  }

  return {
    values,
    set,
    field,
    checkbox,
    errors,
    setError,
    handleSubmit,
    reset,
    formRef,
    valid: result.success,
  };
}

/** The errors without the edited field's (the same object when it had none, so no re-render). */
function without(errors: FieldErrors, name: string): FieldErrors {
  if (!errors[name]) return errors;
  const { [name]: _edited, ...rest } = errors;
  return rest;
}

/** '' stays undefined so the schema says "… must be a number"; anything else is Number(). */
export function numberOrUndefined(value: string): number | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : Number(trimmed);
}

/**
 * Plain checks that each field is filled in, each with its message, for the first screen's
 * forms: zod stays out of the login bundle. Values come out as typed.
 */
export function requireFilled<K extends string>(
  messages: Record<K, string>,
): Validator<Record<K, string>> {
  return {
    safeParse(input) {
      const values = input as Record<K, string>;
      const issues = (Object.keys(messages) as K[])
        .filter((name) => values[name].trim() === '')
        .map((name) => ({ path: [name], message: messages[name] }));
      return issues.length > 0
        ? { success: false, error: { issues } }
        : { success: true, data: values };
    },
  };
}

/** What useSchemaForm returns, for a component that takes a whole form (LiveForm). */
export type SchemaForm<V extends Record<string, unknown>, O> = ReturnType<
  typeof useSchemaForm<V, O>
>;
