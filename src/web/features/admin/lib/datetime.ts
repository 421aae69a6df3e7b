import { LAGOS_OFFSET_MS } from '@shared/date.ts';

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

/**
 * YYYY-MM-DD of the Lagos day `date` falls in. The console's reports count whole Lagos days, so
 * "today" is Lagos's today whatever the operator's browser is set to (from 23:00 UTC a browser
 * on UTC is still on the day before, and its range left out the last hour's money).
 */
export function lagosDate(date: Date): string {
  return new Date(date.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 10);
}

/** The Lagos date `days` before the one `from` falls in (Lagos keeps no daylight saving). */
export function lagosDaysAgo(days: number, from = new Date()): string {
  return lagosDate(new Date(from.getTime() - days * DAY_MS));
}

const DAY_MS = 86_400_000;
