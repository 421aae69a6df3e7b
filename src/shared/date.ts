let dateFormatter: Intl.DateTimeFormat | undefined;

/**
 * Made on first use, not when the module loads: a page's first Intl object loads the locale
 * data (tens of milliseconds of a cheap phone's main thread), which a screen with no date skips.
 */
function lagosDateFormatter(): Intl.DateTimeFormat {
  dateFormatter ??= new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    // hour12: true would pick en-GB's h11 cycle ("0:05 am"); h12 gives "12:05 am".
    hourCycle: 'h12',
    timeZone: 'Africa/Lagos',
  });
  return dateFormatter;
}

/*
 * Every date a player or an operator reads goes through here, on the server too (notification
 * and e-mail texts), so "Mon Nov 30 2026" never sits beside "23 Nov 2026, 5:51 pm".
 */

/** en-GB, 2-digit day, short month, year, 12-hour time with minutes (docs/product.md#constants), Lagos time. */
export function formatDate(value: string | number | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return lagosDateFormatter().format(date);
}

/** Africa/Lagos is UTC+1 all year (no daylight saving), so its calendar is plain arithmetic. */
export const LAGOS_OFFSET_MS = 3_600_000;

export const DAY_MS = 86_400_000;

/**
 * YYYY-MM-DD of the Lagos day `at` falls in: the dates the leaderboard and the console's reports
 * take, and a birthday's. From 23:00 UTC it is already the next day in Lagos, whatever zone the
 * browser or the server is set to.
 */
export function lagosDate(at: Date): string {
  return new Date(at.getTime() + LAGOS_OFFSET_MS).toISOString().slice(0, 10);
}

/** The Lagos date `days` before the one `from` falls in. */
export function lagosDaysAgo(days: number, from: Date): string {
  return lagosDate(new Date(from.getTime() - days * DAY_MS));
}

/** The instant a Lagos day (YYYY-MM-DD) starts. */
export function lagosMidnight(date: string): Date {
  return new Date(Date.parse(date) - LAGOS_OFFSET_MS);
}

/** Midnight in Lagos that starts the day `now` falls in (daily game limits, daily caps). */
export function lagosDayStart(now: Date): Date {
  const lagosDays = Math.floor((now.getTime() + LAGOS_OFFSET_MS) / DAY_MS);
  return new Date(lagosDays * DAY_MS - LAGOS_OFFSET_MS);
}
