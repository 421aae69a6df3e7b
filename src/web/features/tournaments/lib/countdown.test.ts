import { describe, expect, it } from 'vitest';
import { DEFAULT_LAUNCH_MS, launchTime, timeLeft, timeLeftText } from './countdown.ts';

const NOW = Date.parse('2026-11-22T01:00:00Z');
const DAY = 86_400_000;

describe('launchTime', () => {
  it('uses the launch time from settings', () => {
    expect(launchTime({ tournamentLaunchAt: '2026-12-01T09:00:00.000Z' }, NOW)).toBe(
      Date.parse('2026-12-01T09:00:00.000Z'),
    );
  });

  it('counts down to 2025-09-22 (Lagos midnight) while settings are not loaded', () => {
    expect(launchTime(null, NOW)).toBe(DEFAULT_LAUNCH_MS);
    expect(new Date(DEFAULT_LAUNCH_MS).toISOString()).toBe('2025-09-21T23:00:00.000Z');
  });

  it('counts 10 days from now when settings give no launch time (or an unreadable one)', () => {
    expect(launchTime({ tournamentLaunchAt: null }, NOW)).toBe(NOW + 10 * DAY);
    expect(launchTime({ tournamentLaunchAt: 'soon' }, NOW)).toBe(NOW + 10 * DAY);
  });
});

describe('timeLeft', () => {
  it('splits the time into days, hours, minutes and seconds', () => {
    const target = NOW + 3 * DAY + 4 * 3_600_000 + 5 * 60_000 + 6_000 + 999;
    expect(timeLeft(target, NOW)).toEqual({
      days: 3,
      hours: 4,
      minutes: 5,
      seconds: 6,
      done: false,
    });
  });

  it('is done, at zero, once the launch has passed', () => {
    expect(timeLeft(NOW - 1, NOW)).toEqual({
      days: 0,
      hours: 0,
      minutes: 0,
      seconds: 0,
      done: true,
    });
  });

  it('reads well for screen readers', () => {
    expect(timeLeftText(timeLeft(NOW + DAY + 60_000, NOW))).toBe('1 day, 0 hours, 1 minute');
    expect(timeLeftText(timeLeft(NOW, NOW))).toBe('Tournaments are live');
  });
});
