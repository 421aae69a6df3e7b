import { describe, expect, it } from 'vitest';
import { formatDate, lagosDate, lagosDayStart, lagosDaysAgo, lagosMidnight } from './date.ts';

describe('formatDate', () => {
  it('uses en-GB order: 2-digit day, short month, year, then 12-hour time with minutes', () => {
    // 13:30 UTC is 14:30 in Lagos (UTC+1, no daylight saving).
    expect(formatDate('2025-03-05T13:30:00Z')).toBe('05 Mar 2025, 2:30 pm');
    expect(formatDate('2025-10-22T08:07:00Z')).toBe('22 Oct 2025, 9:07 am');
  });

  it('shows the time in Lagos, whatever the zone of the input', () => {
    expect(formatDate('2025-03-05T23:30:00Z')).toBe('06 Mar 2025, 12:30 am');
    expect(formatDate('2025-03-05T14:30:00+01:00')).toBe('05 Mar 2025, 2:30 pm');
  });

  it('writes midnight and noon as 12, never 0', () => {
    expect(formatDate('2025-12-25T23:05:00Z')).toBe('26 Dec 2025, 12:05 am');
    expect(formatDate('2025-12-25T11:05:00Z')).toBe('25 Dec 2025, 12:05 pm');
  });

  it('accepts a Date, an ISO string or a timestamp alike', () => {
    const iso = '2024-02-29T17:45:00.000Z';
    const expected = '29 Feb 2024, 6:45 pm';
    expect(formatDate(iso)).toBe(expected);
    expect(formatDate(new Date(iso))).toBe(expected);
    expect(formatDate(Date.parse(iso))).toBe(expected);
  });

  it('returns an empty string for an invalid date', () => {
    expect(formatDate('not a date')).toBe('');
    expect(formatDate(Number.NaN)).toBe('');
  });
});

describe('the Lagos calendar (UTC+1 all year)', () => {
  it('from 23:00 UTC it is already the next day in Lagos', () => {
    expect(lagosDate(new Date('2026-11-27T22:59:59Z'))).toBe('2026-11-27');
    expect(lagosDate(new Date('2026-11-27T23:00:00Z'))).toBe('2026-11-28');
    expect(lagosDate(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
  });

  it('counts whole days back from the Lagos day, across a month', () => {
    const lateEvening = new Date('2026-11-27T23:30:00Z');
    expect(lagosDaysAgo(0, lateEvening)).toBe('2026-11-28');
    expect(lagosDaysAgo(29, lateEvening)).toBe('2026-10-30');
    expect(lagosDaysAgo(6, new Date('2026-03-03T10:00:00Z'))).toBe('2026-02-25');
  });

  it('a Lagos day starts at 23:00 UTC the evening before', () => {
    expect(lagosMidnight('2026-11-28').toISOString()).toBe('2026-11-27T23:00:00.000Z');
    expect(lagosMidnight('2027-01-01').toISOString()).toBe('2026-12-31T23:00:00.000Z');
  });

  it('the day an instant falls in starts at its Lagos midnight', () => {
    for (const at of ['2026-11-27T22:59:59.999Z', '2026-11-27T23:00:00Z', '2026-11-28T12:00:00Z']) {
      const instant = new Date(at);
      const start = lagosDayStart(instant);
      expect(start).toEqual(lagosMidnight(lagosDate(instant)));
      expect(start.getTime()).toBeLessThanOrEqual(instant.getTime());
      expect(instant.getTime() - start.getTime()).toBeLessThan(86_400_000);
    }
    expect(lagosDayStart(new Date('2026-11-27T22:59:59Z')).toISOString()).toBe(
      '2026-11-26T23:00:00.000Z',
    );
  });
});
