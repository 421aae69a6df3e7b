import { describe, expect, it } from 'vitest';
import { lagosDate, lagosDaysAgo } from './datetime.ts';

describe("the console's report days are Lagos days", () => {
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
});
