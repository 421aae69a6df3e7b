import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../errors.ts';

export const INPUT_MESSAGES = {
  unsupportedCharacter:
    'The request contains a character that cannot be stored (a NUL or an unpaired surrogate). Remove it and try again.',
} as const;

/**
 * NUL, which PostgreSQL refuses in text ("invalid byte sequence"), and a UTF-16 surrogate
 * without its pair, which the database driver would silently turn into U+FFFD. In a `u`
 * regular expression a surrogate range matches only unpaired ones.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point.
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/u;

/** Every string in a parsed value, keys included, walked without recursion (any depth). */
export function holdsUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (UNSTORABLE.test(current)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (typeof current === 'object' && current !== null && !Buffer.isBuffer(current)) {
      // for…in rather than Object.entries: this runs on every request, headers included.
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        if (UNSTORABLE.test(key)) return true;
        pending.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/**
 * One check for every route, before any route validates or reads its input: text the database
 * cannot store is a clear 400 wherever it arrives (path, query, headers, JSON body), instead of
 * a 500 from whichever statement first meets it. Raw bodies (signed webhooks) are bytes and
 * left to their route.
 */
export default fp(
  async function inputGuardPlugin(app: FastifyInstance) {
    app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
      if (
        holdsUnstorableText(request.params) ||
        holdsUnstorableText(request.query) ||
        holdsUnstorableText(request.headers) ||
        holdsUnstorableText(request.body)
      )
        return done(badRequest(INPUT_MESSAGES.unsupportedCharacter));
      done();
    });
  },
  { name: 'input-guard' },
);
