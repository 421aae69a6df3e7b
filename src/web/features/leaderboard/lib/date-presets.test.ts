import { describe, expect, it } from 'vitest';
import {
  leaderboardPresets,
  monthlyPresets,
  PRESET_COUNTS,
  quarterlyPresets,
  weeklyPresets,
} from './date-presets.ts';

// Sunday 22 November 2026, 02:20 in Lagos (01:20 UTC).
const NOW = new Date('2026-11-22T01:20:00Z');

describe('leaderboard date presets (docs/product.md#constants: 5 weeks, 5 months, 4 quarters)', () => {
  it('gives the last 5 weeks, Monday to Sunday, newest first', () => {
    expect(weeklyPresets(NOW)).toEqual([
      { label: 'This week', dateFrom: '2026-11-16', dateTo: '2026-11-22' },
      { label: 'Last week', dateFrom: '2026-11-09', dateTo: '2026-11-15' },
      { label: '2 Nov – 8 Nov', dateFrom: '2026-11-02', dateTo: '2026-11-08' },
      { label: '26 Oct – 1 Nov', dateFrom: '2026-10-26', dateTo: '2026-11-01' },
      { label: '19 Oct – 25 Oct', dateFrom: '2026-10-19', dateTo: '2026-10-25' },
    ]);
  });

  it('uses the Lagos date, not the UTC one, around midnight', () => {
    // 23:30 UTC on Sunday is already Monday 00:30 in Lagos: a new week.
    const [week] = weeklyPresets(new Date('2026-11-22T23:30:00Z'));
    expect(week).toEqual({ label: 'This week', dateFrom: '2026-11-23', dateTo: '2026-11-29' });
  });

  it('gives the last 5 calendar months, with their real lengths', () => {
    expect(monthlyPresets(new Date('2026-03-10T12:00:00Z'))).toEqual([
      { label: 'March 2026', dateFrom: '2026-03-01', dateTo: '2026-03-31' },
      { label: 'February 2026', dateFrom: '2026-02-01', dateTo: '2026-02-28' },
      { label: 'January 2026', dateFrom: '2026-01-01', dateTo: '2026-01-31' },
      { label: 'December 2025', dateFrom: '2025-12-01', dateTo: '2025-12-31' },
      { label: 'November 2025', dateFrom: '2025-11-01', dateTo: '2025-11-30' },
    ]);
  });

  it('knows leap years', () => {
    expect(monthlyPresets(new Date('2028-02-15T12:00:00Z'), 1)).toEqual([
      { label: 'February 2028', dateFrom: '2028-02-01', dateTo: '2028-02-29' },
    ]);
  });

  it('gives the last 4 quarters across a year boundary', () => {
    expect(quarterlyPresets(new Date('2026-02-01T12:00:00Z'))).toEqual([
      { label: 'Q1 2026', dateFrom: '2026-01-01', dateTo: '2026-03-31' },
      { label: 'Q4 2025', dateFrom: '2025-10-01', dateTo: '2025-12-31' },
      { label: 'Q3 2025', dateFrom: '2025-07-01', dateTo: '2025-09-30' },
      { label: 'Q2 2025', dateFrom: '2025-04-01', dateTo: '2025-06-30' },
    ]);
  });

  it('builds all three sets with the spec counts', () => {
    const presets = leaderboardPresets(NOW);
    expect(presets.weekly).toHaveLength(PRESET_COUNTS.weekly);
    expect(presets.monthly).toHaveLength(5);
    expect(presets.quarterly).toHaveLength(4);
    expect(presets.quarterly[0]).toEqual({
      label: 'Q4 2026',
      dateFrom: '2026-10-01',
      dateTo: '2026-12-31',
    });
  });

  it('every window is contiguous with the next: no day is skipped or counted twice', () => {
    for (const windows of Object.values(leaderboardPresets(NOW))) {
      for (let i = 1; i < windows.length; i += 1) {
        const newer = windows[i - 1];
        const older = windows[i];
        if (!newer || !older) throw new Error('missing window');
        const dayAfter = new Date(Date.parse(`${older.dateTo}T00:00:00Z`) + 86_400_000);
        expect(dayAfter.toISOString().slice(0, 10)).toBe(newer.dateFrom);
      }
    }
  });
});
