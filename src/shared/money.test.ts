import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNaira, koboToNaira, nairaToKobo } from './money.ts';

describe('formatNaira', () => {
  it('prefixes ₦ and groups thousands with commas', () => {
    expect(formatNaira(0)).toBe('₦0');
    expect(formatNaira(100)).toBe('₦100');
    expect(formatNaira(1000)).toBe('₦1,000');
    expect(formatNaira(2500)).toBe('₦2,500');
    expect(formatNaira(1234567)).toBe('₦1,234,567');
    expect(formatNaira(1_000_000_000)).toBe('₦1,000,000,000');
  });

  it('groups digits exactly as Intl.NumberFormat does for en-NG', () => {
    const intl = new Intl.NumberFormat('en-NG', { maximumFractionDigits: 0 });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
          fc.double({ min: -1e300, max: 1e300, noNaN: true }),
        ),
        (amount) => {
          const rounded = Math.round(amount);
          const sign = rounded < 0 ? '-' : '';
          expect(formatNaira(amount)).toBe(`${sign}₦${intl.format(Math.abs(rounded))}`);
        },
      ),
      { seed: 20_261_129 },
    );
  });

  it('shows no decimals, rounding to the nearest naira', () => {
    expect(formatNaira(99.4)).toBe('₦99');
    expect(formatNaira(99.5)).toBe('₦100');
    expect(formatNaira(999.99)).toBe('₦1,000');
    expect(formatNaira(1234.49)).toBe('₦1,234');
    expect(formatNaira(0.4)).toBe('₦0');
  });

  it('shows ₦0 for a missing or non-finite amount', () => {
    expect(formatNaira(undefined)).toBe('₦0');
    expect(formatNaira(null)).toBe('₦0');
    expect(formatNaira(Number.NaN)).toBe('₦0');
    expect(formatNaira(Number.POSITIVE_INFINITY)).toBe('₦0');
  });

  it('puts the sign before the symbol and never shows -₦0', () => {
    expect(formatNaira(-1500)).toBe('-₦1,500');
    expect(formatNaira(-0.4)).toBe('₦0');
    expect(formatNaira(-0)).toBe('₦0');
  });

  it('property: the digits shown are Math.round of the amount', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (amount) => {
        const text = formatNaira(amount);
        const rounded = Math.round(amount);
        expect(text).toMatch(/^-?₦\d{1,3}(,\d{3})*$/);
        expect(Number(text.replace(/[^\d]/g, ''))).toBe(Math.abs(rounded));
        expect(text.startsWith('-')).toBe(rounded < 0);
      }),
    );
  });

  it('property: amounts of 1,000 and above always carry a thousands separator', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: Number.MAX_SAFE_INTEGER }), (amount) => {
        expect(formatNaira(amount)).toContain(',');
      }),
    );
  });
});

describe('naira and kobo', () => {
  it('converts naira to integer kobo and back', () => {
    expect(nairaToKobo(50)).toBe(5000n);
    expect(nairaToKobo(0.1 + 0.2)).toBe(30n);
    expect(nairaToKobo(19.99)).toBe(1999n);
    expect(koboToNaira(5000n)).toBe(50);
    expect(koboToNaira(123456n)).toBe(1234.56);
    expect(koboToNaira(1)).toBe(0.01);
  });

  it('refuses by name an amount whose kobo a number cannot count, instead of BigInt(Infinity)', () => {
    for (const naira of [1e308, Number.MAX_VALUE, Number.POSITIVE_INFINITY, Number.NaN, 1e14])
      expect(() => nairaToKobo(naira), String(naira)).toThrow(/not a countable amount/);
    expect(nairaToKobo(-0)).toBe(0n);
  });

  it('property: a 2-decimal naira amount survives nairaToKobo then koboToNaira', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (kobo) => {
        const naira = kobo / 100;
        expect(nairaToKobo(naira)).toBe(BigInt(kobo));
        expect(koboToNaira(nairaToKobo(naira))).toBe(naira);
      }),
    );
  });

  it('property: any integer kobo survives koboToNaira then nairaToKobo', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 13n }), (kobo) => {
        expect(nairaToKobo(koboToNaira(kobo))).toBe(kobo);
      }),
    );
  });
});
