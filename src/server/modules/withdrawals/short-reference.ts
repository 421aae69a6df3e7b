import { randomBytes } from 'node:crypto';
import { SHORT_REFERENCE_LENGTH, shortReferenceFrom } from '../../../shared/short-reference.ts';

/** A fresh random short reference (shared/short-reference.ts). */
export const newShortReference = (): string =>
  shortReferenceFrom(randomBytes(SHORT_REFERENCE_LENGTH));

/** With 50 random bits a second draw is already a rarity; five taken in a row is a fault. */
const DRAWS = 5;

/**
 * Inserts a row under a new short reference. `insert` adds it with ON CONFLICT DO NOTHING on the
 * reference's unique index, so a taken one returns no row and leaves the transaction usable; then
 * another is drawn.
 */
export async function insertWithShortReference<T>(
  insert: (shortReference: string) => Promise<T | undefined>,
  draw: () => string = newShortReference,
): Promise<T> {
  for (let attempt = 0; attempt < DRAWS; attempt += 1) {
    const row = await insert(draw());
    if (row !== undefined) return row;
  }
  throw new Error(`${DRAWS} short references in a row were taken`);
}
