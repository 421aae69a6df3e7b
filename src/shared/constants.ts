/** Business constants (docs/product.md#constants) and the API base (docs/product.md#the-api). */
export const API_BASE = '/api/v1';
export const HTTP_TIMEOUT_MS = 20_000;

export const CURRENCY_SYMBOL = '₦';
export const DEFAULT_PHONE_PREFIX = '+234';
export const FULLNAME_MIN_LENGTH = 5;
export const FULLNAME_MAX_LENGTH = 100;
/** The longest e-mail address SMTP carries (RFC 5321: a 256-octet path less its brackets). */
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MAX_LENGTH = 200;

export const ANSWER_MAX_WORDS = 20;
export const ANSWER_MAX_CHARACTERS = 280;
/**
 * What may be sent as an answer: the 280-character limit is on the visible text (invisible
 * characters are removed first), so the raw text may be longer, but not without bound.
 */
export const ANSWER_MAX_SENT_CHARACTERS = ANSWER_MAX_CHARACTERS * 4;
/** One winner for every five players. */
export const PLAYERS_PER_WINNER = 5;

export const LEADERBOARD_DEFAULT_PAGE_SIZE = 10;
export const DEFAULT_PAGE_SIZE = 10;

export const TOPUP_QUICK_AMOUNTS = [1000, 2500, 5000, 10000] as const;
export const TOPUP_STATIC_MINIMUM_TEXT_AMOUNT = 100;
/** Largest top-up and withdrawal a player may ask for, in naira (far above any real wallet). */
export const TOPUP_MAX_NAIRA = 10_000_000;
export const WITHDRAWAL_MAX_NAIRA = 1_000_000_000;

export const TOURNAMENT_LAUNCH_DATE = '2025-09-22';
export const DEFAULT_COUNTDOWN_DAYS = 10;

export const PLAN_DAYS_PER_PERIOD = 7;

export const TOAST_DURATION_MS = { default: 4000, error: 4000, success: 2000 } as const;
export const TOAST_LIMIT = 20;

export const STORAGE_KEYS = { token: 'authToken', user: 'user' } as const;

export const WITHDRAWAL_STATUSES = [
  'PENDING',
  'PROCESSING',
  'SUCCESSFUL',
  'FAILED',
  'REJECTED',
] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

export const WITHDRAWAL_PROCESSING_TEXT = 'Withdrawals are processed within 24–48 hours.';
export const PRIZE_PAYOUT_TEXT = 'Prize payouts land within 7 business days.';

export const GAME_TYPES = ['TRENDING', 'NEW_CHALLANGES', 'HIGHEST_PAYOUTS', 'TOURNAMENT'] as const;
export type GameType = (typeof GAME_TYPES)[number];

export const GAME_STATUSES = ['UPCOMING', 'ONGOING', 'CLOSED', 'COMPLETED', 'CANCELLED'] as const;
export type GameStatus = (typeof GAME_STATUSES)[number];

export const GAME_STATUS_LABELS: Record<GameStatus, string> = {
  UPCOMING: 'Upcoming',
  ONGOING: 'Live',
  CLOSED: 'Closed',
  COMPLETED: 'Completed',
  CANCELLED: 'Cancelled',
};

export const POINTS_PER_GAME = 10;
export const POINTS_PER_WIN = 50;
/** Upper bounds (exclusive) of levels 1–4; anything above is level 5. */
export const LEVEL_THRESHOLDS = [100, 500, 2000, 10_000] as const;

export function levelForPoints(points: number): number {
  const index = LEVEL_THRESHOLDS.findIndex((limit) => points < limit);
  return index === -1 ? LEVEL_THRESHOLDS.length + 1 : index + 1;
}

/** What the public fairness log records, in the order a game's records appear. */
export const FAIRNESS_LOG_KINDS = [
  'commitment',
  'seal',
  'beacon',
  'result',
  'cancellation',
] as const;
export type FairnessLogKind = (typeof FAIRNESS_LOG_KINDS)[number];
