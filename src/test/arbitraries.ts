import fc from 'fast-check';

/**
 * Any Unicode code point as one character, lone surrogate halves included, with printable ASCII
 * as likely as the rest: what fast-check's `unit: 'binary'` generates. Drawn from plain integers
 * because that unit builds a map of all 1,114,112 code points on first use, which its arbitrary
 * then keeps for as long as the test worker lives (bench/RESULTS.md).
 */
const anyCodePoint = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0, max: 0x10ffff }))
  .map((code) => String.fromCodePoint(code));

/** Text of any code points, lone surrogates included (see `anyCodePoint`). */
export const anyText = (constraints: { maxLength: number }) =>
  fc.string({ unit: anyCodePoint, ...constraints });
