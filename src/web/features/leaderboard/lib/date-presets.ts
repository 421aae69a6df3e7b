import { DAY_MS, lagosDate } from '@shared/date.ts';

/**
 * Leaderboard date windows of docs/product.md#screens/#constants: the last 5 weeks, 5 months and 4 quarters, newest
 * first, in the Lagos calendar (UTC+1, no daylight saving), as the YYYY-MM-DD dates
 * GET /leaderboard takes. Built, but not displayed (docs/product.md#screens).
 */
export interface DatePreset {
  label: string;
  /** First day of the window, YYYY-MM-DD. */
  dateFrom: string;
  /** Last day of the window (inclusive), YYYY-MM-DD. */
  dateTo: string;
}

export const PRESET_COUNTS = { weekly: 5, monthly: 5, quarterly: 4 } as const;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** Today in Lagos as a UTC-midnight Date (so date arithmetic is plain UTC arithmetic). */
function lagosToday(now: Date): Date {
  return new Date(lagosDate(now));
}

/** YYYY-MM-DD of a UTC-midnight Date; Date.UTC rolls over months and years for us. */
function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function utcDay(year: number, month: number, day: number): Date {
  return new Date(Date.UTC(year, month, day));
}

function shortDay(date: Date): string {
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]?.slice(0, 3)}`;
}

/** Weeks run Monday to Sunday; the first is the current week. */
export function weeklyPresets(
  now = new Date(),
  count: number = PRESET_COUNTS.weekly,
): DatePreset[] {
  const today = lagosToday(now);
  const sinceMonday = (today.getUTCDay() + 6) % 7;
  const thisMonday = today.getTime() - sinceMonday * DAY_MS;
  return Array.from({ length: count }, (_, index) => {
    const start = new Date(thisMonday - index * 7 * DAY_MS);
    const end = new Date(start.getTime() + 6 * DAY_MS);
    const label =
      index === 0
        ? 'This week'
        : index === 1
          ? 'Last week'
          : `${shortDay(start)} – ${shortDay(end)}`;
    return { label, dateFrom: isoDay(start), dateTo: isoDay(end) };
  });
}

/** Calendar months; the first is the current month. */
export function monthlyPresets(
  now = new Date(),
  count: number = PRESET_COUNTS.monthly,
): DatePreset[] {
  const today = lagosToday(now);
  return Array.from({ length: count }, (_, index) => {
    const start = utcDay(today.getUTCFullYear(), today.getUTCMonth() - index, 1);
    const end = utcDay(start.getUTCFullYear(), start.getUTCMonth() + 1, 0);
    return {
      label: `${MONTHS[start.getUTCMonth()]} ${start.getUTCFullYear()}`,
      dateFrom: isoDay(start),
      dateTo: isoDay(end),
    };
  });
}

/** Calendar quarters (Jan–Mar is Q1); the first is the current quarter. */
export function quarterlyPresets(
  now = new Date(),
  count: number = PRESET_COUNTS.quarterly,
): DatePreset[] {
  const today = lagosToday(now);
  const firstMonth = today.getUTCMonth() - (today.getUTCMonth() % 3);
  return Array.from({ length: count }, (_, index) => {
    const start = utcDay(today.getUTCFullYear(), firstMonth - index * 3, 1);
    const end = utcDay(start.getUTCFullYear(), start.getUTCMonth() + 3, 0);
    return {
      label: `Q${start.getUTCMonth() / 3 + 1} ${start.getUTCFullYear()}`,
      dateFrom: isoDay(start),
      dateTo: isoDay(end),
    };
  });
}

export type PresetPeriod = keyof typeof PRESET_COUNTS;

export function leaderboardPresets(now = new Date()): Record<PresetPeriod, DatePreset[]> {
  return {
    weekly: weeklyPresets(now),
    monthly: monthlyPresets(now),
    quarterly: quarterlyPresets(now),
  };
}
