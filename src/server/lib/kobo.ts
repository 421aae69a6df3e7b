/** The larger of two kobo amounts (Math.max does not take bigints). */
export function maxKobo(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
