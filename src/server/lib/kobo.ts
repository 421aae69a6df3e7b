/** The larger of two kobo amounts (Math.max does not take bigints). */
export function maxKobo(a: bigint, b: bigint): bigint {
  // biome-ignore lint/complexity/useMathMinMax: Math.max cannot compare bigints.
  return a > b ? a : b;
}
