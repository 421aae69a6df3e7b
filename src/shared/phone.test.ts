import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPhone, normalisePhone } from './phone.ts';

describe('normalisePhone (docs/product.md#validation)', () => {
  it('drops the leading 0 of a local number and prefixes +234', () => {
    expect(normalisePhone('08012345678')).toBe('+2348012345678');
    expect(normalisePhone('07031234567')).toBe('+2347031234567');
  });

  it('prefixes +234 to a number without a leading 0', () => {
    expect(normalisePhone('8012345678')).toBe('+2348012345678');
  });

  it('keeps a number that starts with +', () => {
    expect(normalisePhone('+2348012345678')).toBe('+2348012345678');
    expect(normalisePhone('+447700900123')).toBe('+447700900123');
  });

  it('removes spaces, hyphens and brackets before anything else', () => {
    expect(normalisePhone('0801 234 5678')).toBe('+2348012345678');
    expect(normalisePhone('0801-234-5678')).toBe('+2348012345678');
    expect(normalisePhone('(0801) 234-5678')).toBe('+2348012345678');
    expect(normalisePhone(' +234 (801) 234-5678 ')).toBe('+2348012345678');
    expect(normalisePhone('+44 [7700] {900} 123')).toBe('+447700900123');
    expect(normalisePhone('\t0801\n2345678')).toBe('+2348012345678');
  });

  it('gives a Nigerian number typed with its country code but no + just the +', () => {
    expect(normalisePhone('2348031234567')).toBe('+2348031234567');
    expect(normalisePhone('234 803 123 4567')).toBe('+2348031234567');
    // Not a full Nigerian number: the spec's rule as before.
    expect(normalisePhone('23480312345')).toBe('+23423480312345');
  });

  it('drops only one leading 0', () => {
    expect(normalisePhone('008012345678')).toBe('+23408012345678');
  });

  it('leaves an empty or blank number empty', () => {
    expect(normalisePhone('')).toBe('');
    expect(normalisePhone('  - ( ) ')).toBe('');
  });

  const phoneLike = fc.string({
    unit: fc.constantFrom(...'0123456789+ -()[]{}'.split('')),
    maxLength: 25,
  });
  const localDigits = fc.string({
    unit: fc.constantFrom(...'0123456789'.split('')),
    minLength: 1,
    maxLength: 12,
  });
  const separators = fc.constantFrom(' ', '-', '(', ')', '', '  ');

  it('property: the result never contains spaces, hyphens or brackets', () => {
    fc.assert(
      fc.property(fc.oneof(phoneLike, fc.string()), (input) => {
        expect(normalisePhone(input)).not.toMatch(/[\s\-()[\]{}]/);
      }),
    );
  });

  it('property: a non-empty result always starts with +', () => {
    fc.assert(
      fc.property(fc.oneof(phoneLike, fc.string()), (input) => {
        const output = normalisePhone(input);
        if (output !== '') expect(output.startsWith('+')).toBe(true);
      }),
    );
  });

  it('property: a number starting with + keeps its characters, only separators go', () => {
    fc.assert(
      fc.property(phoneLike, (rest) => {
        const input = `+${rest}`;
        expect(normalisePhone(input)).toBe(input.replace(/[\s\-()[\]{}]/g, ''));
      }),
    );
  });

  it('property: idempotent on its own output', () => {
    fc.assert(
      fc.property(fc.oneof(phoneLike, fc.string()), (input) => {
        const once = normalisePhone(input);
        expect(normalisePhone(once)).toBe(once);
      }),
    );
  });

  it('property: a 0-prefixed local number becomes +234 followed by the rest of its digits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(localDigits, separators), { minLength: 1, maxLength: 4 }),
        (parts) => {
          const digits = parts.map(([d]) => d).join('');
          const formatted = `0${parts.map(([d, s]) => d + s).join('')}`;
          expect(normalisePhone(formatted)).toBe(`+234${digits}`);
        },
      ),
    );
  });
});

describe('formatPhone', () => {
  it('shows a stored Nigerian number as it is read in Nigeria', () => {
    expect(formatPhone('+2348031234568')).toBe('0803 123 4568');
    expect(formatPhone('+2347012345678')).toBe('0701 234 5678');
    expect(formatPhone('+2349098765432')).toBe('0909 876 5432');
  });

  it('leaves any other number as stored, with its country code', () => {
    expect(formatPhone('+447700900123')).toBe('+447700900123');
    expect(formatPhone('+23480312345')).toBe('+23480312345');
    expect(formatPhone('')).toBe('');
  });

  it('property: reading a formatted Nigerian number back gives the stored number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[789]\d{9}$/), (digits) => {
        const stored = `+234${digits}`;
        expect(normalisePhone(formatPhone(stored))).toBe(stored);
      }),
    );
  });
});
