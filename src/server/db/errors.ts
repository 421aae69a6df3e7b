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
