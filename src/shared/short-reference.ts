/**
 * Short references: what a player reads out to support instead of a 36-character id. Ten
 * characters of Crockford's base32 (digits and capitals without I, L, O and U, so nothing reads
 * as another character): 50 random bits, unique by the database's index.
 */
export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const SHORT_REFERENCE_LENGTH = 10;

const SHORT_REFERENCE = new RegExp(`^[${CROCKFORD_ALPHABET}]{${SHORT_REFERENCE_LENGTH}}$`);

/** Ten characters of the alphabet from the low five bits of each of ten random bytes. */
export function shortReferenceFrom(randomBytes: Uint8Array): string {
  if (randomBytes.length < SHORT_REFERENCE_LENGTH) throw new Error('ten random bytes are needed');
  let reference = '';
  for (let index = 0; index < SHORT_REFERENCE_LENGTH; index += 1) {
    reference += CROCKFORD_ALPHABET[(randomBytes[index] ?? 0) & 31];
  }
  return reference;
}

/**
 * A reference as someone typed or read it, in its stored form: case, spaces and hyphens do not
 * matter, and I/L read as 1 and O as 0 (Crockford's rule); null when it is not one.
 */
export function normaliseShortReference(input: string): string | null {
  const compact = input
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/[IL]/g, '1')
    .replace(/O/g, '0');
  return SHORT_REFERENCE.test(compact) ? compact : null;
}
