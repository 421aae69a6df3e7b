/**
 * Every error body the API sends carries one of these codes beside `message` and `statusCode`
 * (docs/product.md#errors). Clients branch on the code, never on the status number or the
 * wording; the server maps each code to its HTTP status in one table (src/server/errors.ts).
 */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  ValidationFailed: 'VALIDATION_FAILED',
  Unauthorized: 'UNAUTHORIZED',
  Forbidden: 'FORBIDDEN',
  NotFound: 'NOT_FOUND',
  Conflict: 'CONFLICT',
  AccountSuspended: 'ACCOUNT_SUSPENDED',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  UnsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  TooManyRequests: 'TOO_MANY_REQUESTS',
  Unavailable: 'UNAVAILABLE',
  Internal: 'INTERNAL',
  /** Sign-in before the e-mail is verified: the app goes to the verification page. */
  EmailUnverified: 'EMAIL_UNVERIFIED',
  /** Playing or paying before confirming 18 or over. */
  AgeUnconfirmed: 'AGE_UNCONFIRMED',
  /** A time-out or self-exclusion is running. */
  PlayPaused: 'PLAY_PAUSED',
  DailyLimitReached: 'DAILY_LIMIT_REACHED',
  /** Tournaments need a plan with tournament access. */
  VipOnly: 'VIP_ONLY',
  OperatorsOnly: 'OPERATORS_ONLY',
  GameFull: 'GAME_FULL',
  AlreadyPlayed: 'ALREADY_PLAYED',
  /** The fee changed since the player saw it: nothing was charged, `data` is the fresh game. */
  FeeChanged: 'FEE_CHANGED',
  /** The reward changed since the player saw it: nothing was charged, `data` is the fresh game. */
  RewardChanged: 'REWARD_CHANGED',
  InsufficientFunds: 'INSUFFICIENT_FUNDS',
  PlanNotFound: 'PLAN_NOT_FOUND',
  AlreadySubscribed: 'ALREADY_SUBSCRIBED',
  /** The current password or an e-mailed code was missing or wrong. */
  ProofRefused: 'PROOF_REFUSED',
  /**
   * An operator's session has not proved the second factor (authenticator code) yet: the console
   * asks for it, or for enrolment when `data.enrolled` is false.
   */
  SecondFactorRequired: 'SECOND_FACTOR_REQUIRED',
  /** A payout, wallet adjustment, lifted break or settings change wants a code from the last 15 minutes. */
  FreshSecondFactorRequired: 'FRESH_SECOND_FACTOR_REQUIRED',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ERROR_CODES = Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]];
