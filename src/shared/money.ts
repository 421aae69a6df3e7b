import { CURRENCY_SYMBOL } from './constants.ts';

const KOBO_PER_NAIRA = 100;

let nairaFormatter: Intl.NumberFormat | undefined;

/**
 * Made on first use, not when the module loads: a page's first Intl object loads the locale
 * data, tens of milliseconds of a cheap phone's main thread that a screen showing no amount
 * (the sign-in screens) should not spend.
 */
function nairaDigits(): Intl.NumberFormat {
  nairaFormatter ??= new Intl.NumberFormat('en-NG', {
    maximumFractionDigits: 0,
    minimumFractionDigits: 0,
  });
  return nairaFormatter;
}

/** '₦' + thousands separators + 0 decimals (docs/product.md#constants). Missing or non-finite amounts show ₦0. */
export function formatNaira(amount: number | null | undefined): string {
  const value = typeof amount === 'number' && Number.isFinite(amount) ? amount : 0;
  const rounded = Math.round(value);
  // Avoid "-₦0" for tiny negatives that round to zero.
  const sign = rounded < 0 ? '-' : '';
  return `${sign}${CURRENCY_SYMBOL}${nairaDigits().format(Math.abs(rounded))}`;
}

/**
 * Naira (as the API speaks them) to integer kobo (as the database stores them). Amounts whose
 * kobo a number cannot count exactly are refused by name: request schemas bound every amount
 * far below this, so reaching it is a bug, never a player's input.
 */
export function nairaToKobo(naira: number): bigint {
  const kobo = Math.round(naira * KOBO_PER_NAIRA);
  if (!Number.isSafeInteger(kobo)) throw new RangeError(`${naira} naira is not a countable amount`);
  return BigInt(kobo);
}

export function koboToNaira(kobo: bigint | number): number {
  return Number(kobo) / KOBO_PER_NAIRA;
}
