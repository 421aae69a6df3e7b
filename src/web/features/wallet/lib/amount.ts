/**
 * Reads what a player typed as naira. Thousands separators, spaces and a leading ₦ are
 * tolerated ("₦2,500" is 2500); anything else that is not a number becomes 0, as docs/product.md#validation says
 * for the top-up amount.
 */
export function parseAmount(input: string): number {
  const cleaned = input.replace(/[\s,₦]/g, '');
  if (cleaned === '') return 0;
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : 0;
}
