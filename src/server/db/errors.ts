/** Postgres error codes arrive on the error itself (PGlite, pg) or on its cause (Drizzle wraps). */
export function pgCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  return pgCode(error) === '23505';
}

/** Serialization failures and deadlocks: the transaction may simply be run again. */
export function isRetryableTransactionError(error: unknown): boolean {
  const code = pgCode(error);
  return code === '40001' || code === '40P01';
}

/**
 * SQLSTATEs of a server that is going away or not there yet (class 08: connection exceptions;
 * 57P01-57P03: shut down, crashed, still starting) and of a node that is a standby now.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '25006']);
/** Socket failures reaching the database (a refused connection, a dropped one). */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);
/** node-postgres says these without a code when the connection dies under a query or a connect. */
const UNAVAILABLE_DRIVER_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);

/**
 * The database could not be reached or dropped the connection: nothing about the request was
 * wrong, and during a failover the same request succeeds moments later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (code.startsWith('08') && code.length === 5) return true;
      if (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    }
    if (typeof message === 'string' && UNAVAILABLE_DRIVER_MESSAGES.has(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
