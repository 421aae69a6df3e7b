import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NIGERIAN_BANKS } from '../../seed/seed-data.ts';
import { isValidNuban, nubanCheckDigit } from './nuban.ts';

describe('NUBAN check digit', () => {
  it('matches the CBN worked example (First Bank 011, serial 000001457 → 0000014579)', () => {
    expect(nubanCheckDigit('000001457', '011')).toBe(9);
    expect(isValidNuban('0000014579', '011')).toBe(true);
    expect(isValidNuban('0000014578', '011')).toBe(false);
  });

  it('weights 3,7,3 over bank code and serial; check = (10 − sum mod 10) mod 10', () => {
    // 058 + 123456789: 0·3+5·7+8·3 + 1·3+2·7+3·3+4·3+5·7+6·3+7·3+8·7+9·3 = 59 + 195 = 254
    expect(nubanCheckDigit('123456789', '058')).toBe(6);
    // A sum that is a multiple of ten gives 0, not 10.
    expect(nubanCheckDigit('000000000', '000')).toBe(0);
    expect(isValidNuban('1234567896', '058')).toBe(true);
  });

  it('accepts exactly one of the ten possible last digits at a 3-digit bank', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{9}$/),
        fc.constantFrom(...NIGERIAN_BANKS.map((bank) => bank.code).filter((c) => c.length === 3)),
        (serial, bankCode) => {
          const valid = Array.from({ length: 10 }, (_, digit) => `${serial}${digit}`).filter((n) =>
            isValidNuban(n, bankCode),
          );
          expect(valid).toEqual([`${serial}${nubanCheckDigit(serial, bankCode)}`]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('catches any single mistyped digit', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{9}$/),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        (serial, position, delta) => {
          const account = `${serial}${nubanCheckDigit(serial, '044')}`;
          const digits = [...account];
          digits[position] = String((Number(digits[position]) + delta) % 10);
          expect(isValidNuban(digits.join(''), '044')).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('needs exactly ten digits', () => {
    for (const bad of [
      '',
      '123456789',
      '12345678901',
      '12345 6789',
      'abcdefghij',
      '１２３４５６７８９０',
    ])
      expect(isValidNuban(bad, '058')).toBe(false);
  });

  it('checks only the length for microfinance and fintech codes (the provider lookup does the rest)', () => {
    expect(isValidNuban('8012345678', '50211')).toBe(true);
    expect(isValidNuban('8012345679', '999992')).toBe(true);
    expect(isValidNuban('801234567', '50211')).toBe(false);
  });
});
