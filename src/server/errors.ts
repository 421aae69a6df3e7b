/** Every failure the API reports on purpose has a code; the code decides the HTTP status. */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  Unauthorized: 'UNAUTHORIZED',
  Forbidden: 'FORBIDDEN',
  NotFound: 'NOT_FOUND',
  Conflict: 'CONFLICT',
  AccountSuspended: 'ACCOUNT_SUSPENDED',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  TooManyRequests: 'TOO_MANY_REQUESTS',
  Unavailable: 'UNAVAILABLE',
  Internal: 'INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  ACCOUNT_SUSPENDED: 423,
  PAYLOAD_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

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

export const badRequest = (message: string) => new AppError(ErrorCode.BadRequest, message);
export const notFound = (message: string) => new AppError(ErrorCode.NotFound, message);
export const conflict = (message: string) => new AppError(ErrorCode.Conflict, message);
export const forbidden = (message: string) => new AppError(ErrorCode.Forbidden, message);
export const unauthorized = (message = 'Unauthorized') =>
  new AppError(ErrorCode.Unauthorized, message);
