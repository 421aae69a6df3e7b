const dateFormatter = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  // hour12: true would pick en-GB's h11 cycle ("0:05 am"); h12 gives "12:05 am".
  hourCycle: 'h12',
  timeZone: 'Africa/Lagos',
});

/*
 * Every date a player or an operator reads goes through here, on the server too (notification
 * and e-mail texts), so "Mon Nov 30 2026" never sits beside "23 Nov 2026, 5:51 pm".
 */

/** en-GB, 2-digit day, short month, year, 12-hour time with minutes (docs/product.md#constants), Lagos time. */
export function formatDate(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return dateFormatter.format(date);
}

/** Africa/Lagos is UTC+1 all year (no daylight saving), so its calendar is plain arithmetic. */
export const LAGOS_OFFSET_MS = 3_600_000;

/** Midnight in Lagos that starts the day `now` falls in (daily game limits, daily caps). */
export function lagosDayStart(now: Date): Date {
  const lagos = new Date(now.getTime() + LAGOS_OFFSET_MS);
  return new Date(
    Date.UTC(lagos.getUTCFullYear(), lagos.getUTCMonth(), lagos.getUTCDate()) - LAGOS_OFFSET_MS,
  );
}
