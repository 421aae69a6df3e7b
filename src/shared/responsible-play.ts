/**
 * Responsible play: the calendar periods limits count in, how long time-outs and
 * self-exclusions last, and the texts players see. Shared so the page says exactly what the
 * server enforces.
 */
import { DAY_MS, formatDate, LAGOS_OFFSET_MS, lagosDate, lagosDayStart } from './date.ts';
import { formatNaira } from './money.ts';

export const LIMIT_KINDS = ['deposit', 'spend'] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];
export const LIMIT_PERIODS = ['day', 'week', 'month'] as const;
export type LimitPeriod = (typeof LIMIT_PERIODS)[number];

/** Raising or removing a limit waits this long; lowering applies at once. */
export const LIMIT_COOLING_OFF_MS = 24 * 3_600_000;
/**
 * A checkout nobody has paid counts against deposit limits for this long after it opened, so
 * that opening many at once cannot overshoot; after it, only money that lands counts.
 */
export const CHECKOUT_COUNTS_MS = 30 * 60_000;
/** The largest limit a player may set, in naira (a limit above any top-up is no limit). */
export const LIMIT_MAX_NAIRA = 10_000_000;

export const REALITY_CHECK_CHOICES = [15, 30, 60] as const;
export type RealityCheckMinutes = (typeof REALITY_CHECK_CHOICES)[number];

export const EXCLUSION_DURATIONS = {
  '24h': { kind: 'timeout', label: '24 hours', hours: 24 },
  '7d': { kind: 'timeout', label: '7 days', hours: 7 * 24 },
  '30d': { kind: 'timeout', label: '30 days', hours: 30 * 24 },
  '6m': { kind: 'self_exclusion', label: '6 months', months: 6 },
  '1y': { kind: 'self_exclusion', label: '1 year', months: 12 },
  '5y': { kind: 'self_exclusion', label: '5 years', months: 60 },
} as const satisfies Record<
  string,
  { kind: 'timeout' | 'self_exclusion'; label: string; hours?: number; months?: number }
>;
export type ExclusionDuration = keyof typeof EXCLUSION_DURATIONS;
export type ExclusionKind = 'timeout' | 'self_exclusion';

/** When an exclusion of `duration` started at `start` ends (months are calendar months). */
export function exclusionEnd(start: Date, duration: ExclusionDuration): Date {
  const spec: { hours?: number; months?: number } = EXCLUSION_DURATIONS[duration];
  if (spec.hours !== undefined) return new Date(start.getTime() + spec.hours * 3_600_000);
  const end = new Date(start);
  end.setUTCMonth(end.getUTCMonth() + (spec.months ?? 0));
  return end;
}

/**
 * The calendar period `now` falls in, in Lagos time: the day from midnight, the ISO week from
 * Monday midnight, the month from the 1st. Calendar periods rather than rolling windows: a
 * player can tell when a limit resets ("until Monday"), which is what the page says, and the
 * count is one range query.
 */
export function limitPeriod(period: LimitPeriod, now: Date): { start: Date; end: Date } {
  const lagos = new Date(now.getTime() + LAGOS_OFFSET_MS);
  const year = lagos.getUTCFullYear();
  const month = lagos.getUTCMonth();
  const dayStart = lagosDayStart(now).getTime();
  if (period === 'day') return { start: new Date(dayStart), end: new Date(dayStart + DAY_MS) };
  if (period === 'week') {
    const sinceMonday = (lagos.getUTCDay() + 6) % 7;
    const start = dayStart - sinceMonday * DAY_MS;
    return { start: new Date(start), end: new Date(start + 7 * DAY_MS) };
  }
  return {
    start: new Date(Date.UTC(year, month, 1) - LAGOS_OFFSET_MS),
    end: new Date(Date.UTC(year, month + 1, 1) - LAGOS_OFFSET_MS),
  };
}

/** `YYYY-MM` of the Lagos month `at` falls in. */
export function lagosMonth(at: Date): string {
  return lagosDate(at).slice(0, 7);
}

const PERIOD_WORDS: Record<LimitPeriod, { adjective: string; current: string }> = {
  day: { adjective: 'daily', current: 'today' },
  week: { adjective: 'weekly', current: 'this week' },
  month: { adjective: 'monthly', current: 'this month' },
};

export const periodAdjective = (period: LimitPeriod) => PERIOD_WORDS[period].adjective;
export const KIND_WORDS: Record<LimitKind, string> = { deposit: 'deposit', spend: 'spend' };

export const RESPONSIBLE_PLAY_MESSAGES = {
  limitAmount: 'Enter a limit greater than zero',
  limitTooLarge: `A limit can be at most ${formatNaira(LIMIT_MAX_NAIRA)}`,
  limitKind: 'Choose a deposit or spend limit',
  limitPeriod: 'Choose a day, week or month',
  exclusionDuration: 'Choose how long the break lasts',
  exclusionConfirm: 'Confirm that you understand the break cannot be undone',
  realityCheck: 'Choose a reminder every 15, 30 or 60 minutes, or none',
  preferencesEmpty: 'Nothing to change',
  liftReason: 'Give the reason for lifting it (at least 10 characters)',
  liftReasonTooLong: 'The reason can be at most 500 characters',
  noActiveExclusion: 'This player has no time-out or self-exclusion running',
  limitLowered: 'Your new limit applies now.',
  limitUnchanged: 'Your limit is unchanged.',
} as const;

export const limitRaisedMessage = (from: Date) =>
  `Your new limit applies from ${formatDate(from)}, after a 24-hour cooling-off. Until then your current limit stays.`;

export function exclusionMessage(kind: ExclusionKind, endsAt: Date): string {
  const until = formatDate(endsAt);
  return kind === 'timeout'
    ? `You are taking a break until ${until}. Until then you can see your balance and history and withdraw, but not play, top up or subscribe.`
    : `You have excluded yourself from Pluckers until ${until}. Until then you can see your balance and history and withdraw, but not play, top up or subscribe.`;
}

/**
 * What ties another account to a player's break (normalised as the database does it,
 * pluckers_bind_person). A match on a key the account has proven it owns (its verified e-mail's
 * mailbox, its Google account, its KYC-verified name and birth date) shows that break as the
 * account's own; a phone number or an identity number only typed into the account proves
 * nothing, so such a match refuses money in without saying whose break, or until when.
 */
export const IDENTITY_KEY_KINDS = ['email', 'phone', 'google', 'identity', 'name_birth'] as const;
export type IdentityKeyKind = (typeof IDENTITY_KEY_KINDS)[number];
const PROVEN_KEY_KINDS: readonly IdentityKeyKind[] = ['email', 'google', 'name_birth'];
export const provesOwner = (matchedOn: readonly IdentityKeyKind[]) =>
  matchedOn.some((kind) => PROVEN_KEY_KINDS.includes(kind));

/** The refusal of an account bound to a break by a key it has not proven it owns. */
export const ACCOUNT_PAUSED_MESSAGE =
  'Playing, topping up and subscribing are paused on this account. Contact support if you think this is a mistake.';

export const exclusionStartedMessage = (kind: ExclusionKind, endsAt: Date) =>
  kind === 'timeout'
    ? `Your break has started. It ends on ${formatDate(endsAt)}.`
    : `Your self-exclusion has started. It ends on ${formatDate(endsAt)}.`;

export const exclusionShorterMessage = (endsAt: Date) =>
  `You are already on a break until ${formatDate(endsAt)}. A new one must end later than that.`;

/** "daily deposit limit of ₦1,000": a limit as the messages about it name it. */
export const limitName = (kind: LimitKind, period: LimitPeriod, limitNaira: number) =>
  `${PERIOD_WORDS[period].adjective} ${KIND_WORDS[kind]} limit of ${formatNaira(limitNaira)}`;

/**
 * A top-up, an entry fee or a plan refused by a limit: the limit, and what is left in the
 * period (or when it resets when nothing is).
 */
export function limitReachedMessage(input: {
  kind: LimitKind;
  period: LimitPeriod;
  limitNaira: number;
  remainingNaira: number;
  resetsAt: Date;
  /** What the spend is for; entry fees unless a plan. */
  charge?: 'entry fee' | 'plan';
}): string {
  const { current } = PERIOD_WORDS[input.period];
  const limit = limitName(input.kind, input.period, input.limitNaira);
  if (input.remainingNaira <= 0)
    return `You have reached your ${limit}. It resets on ${formatDate(input.resetsAt)}.`;
  const left = formatNaira(input.remainingNaira);
  return input.kind === 'deposit'
    ? `This top-up would go over your ${limit}. You can top up ${left} more ${current}.`
    : `This ${input.charge ?? 'entry fee'} would go over your ${limit}. You can spend ${left} more ${current}.`;
}
