import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CROCKFORD_ALPHABET,
  normaliseShortReference,
  SHORT_REFERENCE_LENGTH,
  shortReferenceFrom,
} from './short-reference.ts';

describe('short references', () => {
  it('are ten characters of Crockford base32', () => {
    expect(shortReferenceFrom(new Uint8Array([0, 1, 2, 31, 32, 63, 255, 17, 18, 30]))).toBe(
      '012Z0ZZHJY',
    );
  });

  it('property: any random bytes give a reference that reads back as itself', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 10, maxLength: 10 }), (bytes) => {
        const reference = shortReferenceFrom(bytes);
        expect(reference).toHaveLength(SHORT_REFERENCE_LENGTH);
        expect([...reference].every((c) => CROCKFORD_ALPHABET.includes(c))).toBe(true);
        expect(normaliseShortReference(reference)).toBe(reference);
      }),
    );
  });

  it('read as typed: any case, spaces and hyphens, I and L as 1, O as 0', () => {
    expect(normaliseShortReference('7kq2m-9xdtr')).toBe('7KQ2M9XDTR');
    expect(normaliseShortReference(' 7KQ2M 9XDTR ')).toBe('7KQ2M9XDTR');
    expect(normaliseShortReference('OIL2M9XDTR')).toBe('0112M9XDTR');
  });

  it('is null for anything that is not a reference', () => {
    expect(normaliseShortReference('')).toBeNull();
    expect(normaliseShortReference('7KQ2M9XDT')).toBeNull();
    expect(normaliseShortReference('7KQ2M9XDTRR')).toBeNull();
    expect(normaliseShortReference('7KQ2M9XDTU')).toBeNull();
    expect(normaliseShortReference('wd-7KQ2M9XDTR')).toBeNull();
  });
});
