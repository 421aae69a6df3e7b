import { DEFAULT_COUNTDOWN_DAYS, TOURNAMENT_LAUNCH_DATE } from '@shared/constants.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 2025-09-22 at midnight in Lagos, the launch date the original client used (docs/product.md#constants). */
export const DEFAULT_LAUNCH_MS = Date.parse(`${TOURNAMENT_LAUNCH_DATE}T00:00:00+01:00`);

/**
 * When tournaments launch: the operators' settings.tournamentLaunchAt; 2025-09-22 (docs/product.md#constants)
 * while settings have not loaded; and, as docs/product.md#constants says, 10 days from `now` when settings give
 * no launch time.
 */
export function launchTime(
  settings: { tournamentLaunchAt: string | null } | null,
  now: number,
): number {
  if (!settings) return DEFAULT_LAUNCH_MS;
  const configured = settings.tournamentLaunchAt ? Date.parse(settings.tournamentLaunchAt) : NaN;
  if (Number.isFinite(configured)) return configured;
  return now + DEFAULT_COUNTDOWN_DAYS * DAY;
}

export interface TimeLeft {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** The launch has passed. */
  done: boolean;
}

export function timeLeft(target: number, now: number): TimeLeft {
  const left = Math.max(0, target - now);
  return {
    days: Math.floor(left / DAY),
    hours: Math.floor((left % DAY) / HOUR),
    minutes: Math.floor((left % HOUR) / MINUTE),
    seconds: Math.floor((left % MINUTE) / SECOND),
    done: left === 0,
  };
}

const unit = (value: number, name: string) => `${value} ${name}${value === 1 ? '' : 's'}`;

/** The countdown in words, for screen readers: '3 days, 4 hours, 5 minutes'. */
export function timeLeftText(left: TimeLeft): string {
  if (left.done) return 'Tournaments are live';
  return [unit(left.days, 'day'), unit(left.hours, 'hour'), unit(left.minutes, 'minute')].join(
    ', ',
  );
}
