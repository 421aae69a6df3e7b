/** Two digits, for date and time inputs. */
const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO timestamp as a `datetime-local` input value in this browser's time zone. */
export function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(
    date.getHours(),
  )}:${pad(date.getMinutes())}`;
}

/**
 * A `datetime-local` value as the ISO timestamp the API takes; blank means "none" (null).
 * Something unreadable is passed through as typed so the shared schema reports it.
 */
export function localInputToIso(value: string): string | null {
  if (value.trim() === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}
