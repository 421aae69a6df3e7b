import { ErrorCode } from '../shared/error-codes.ts';

export { ErrorCode };

/** The one code → HTTP status table: a code decides its status, wherever it is thrown. */
export const STATUS_BY_CODE = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  INSUFFICIENT_FUNDS: 400,
  PROOF_REFUSED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  EMAIL_UNVERIFIED: 403,
  AGE_UNCONFIRMED: 403,
  PLAY_PAUSED: 403,
  DAILY_LIMIT_REACHED: 403,
  VIP_ONLY: 403,
  OPERATORS_ONLY: 403,
  SECOND_FACTOR_REQUIRED: 403,
  FRESH_SECOND_FACTOR_REQUIRED: 403,
  NOT_FOUND: 404,
  PLAN_NOT_FOUND: 404,
  CONFLICT: 409,
  GAME_FULL: 409,
  ALREADY_PLAYED: 409,
  FEE_CHANGED: 409,
  REWARD_CHANGED: 409,
  ALREADY_SUBSCRIBED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  ACCOUNT_SUSPENDED: 423,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const satisfies Record<ErrorCode, number>;

/** For errors that carry only a status (Fastify's own, plugins'): the generic code of it. */
const GENERIC_CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: ErrorCode.BadRequest,
  401: ErrorCode.Unauthorized,
  403: ErrorCode.Forbidden,
  404: ErrorCode.NotFound,
  409: ErrorCode.Conflict,
  413: ErrorCode.PayloadTooLarge,
  415: ErrorCode.UnsupportedMediaType,
  423: ErrorCode.AccountSuspended,
  429: ErrorCode.TooManyRequests,
  503: ErrorCode.Unavailable,
};

export function codeForStatus(status: number): ErrorCode {
  return (
    GENERIC_CODE_BY_STATUS[status] ?? (status >= 500 ? ErrorCode.Internal : ErrorCode.BadRequest)
  );
}

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Sent as `Retry-After` (seconds) with a 429, so clients know when to come back. */
  readonly retryAfterSeconds: number | undefined;
  /** Sent as `data` beside the message: what the client needs to recover (e.g. the fresh game). */
  readonly data: unknown;

  constructor(
    code: ErrorCode,
    message: string,
    options?: { cause?: unknown; retryAfterSeconds?: number; data?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.retryAfterSeconds = options?.retryAfterSeconds;
    this.data = options?.data;
  }

  get statusCode(): number {
    return STATUS_BY_CODE[this.code];
  }
}

/** The codes whose status is `Status`: a helper for 409s cannot be given a 403's code. */
type CodeOf<Status extends number> = {
  [Code in ErrorCode]: (typeof STATUS_BY_CODE)[Code] extends Status ? Code : never;
}[ErrorCode];

// Each takes the specific code a client may act on; the generic one otherwise.
export const badRequest = (message: string, code: CodeOf<400> = ErrorCode.BadRequest) =>
  new AppError(code, message);
export const notFound = (message: string, code: CodeOf<404> = ErrorCode.NotFound) =>
  new AppError(code, message);
export const conflict = (message: string, code: CodeOf<409> = ErrorCode.Conflict) =>
  new AppError(code, message);
export const forbidden = (message: string, code: CodeOf<403> = ErrorCode.Forbidden) =>
  new AppError(code, message);
export const unauthorized = (message = 'Unauthorized') =>
  new AppError(ErrorCode.Unauthorized, message);
