import { CURRENCY_SYMBOL } from './constants.ts';

const KOBO_PER_NAIRA = 100;

/**
 * Whole naira with commas between thousands, as en-NG writes them (money.test.ts holds it to
 * Intl.NumberFormat). Written out rather than asked of Intl: a page's first Intl object loads
 * the locale data, tens of milliseconds of a cheap phone's main thread that Home would spend on
 * its amounts alone. The digits are the shortest that name the number, as Intl's are; String
 * writes them with an exponent from 1e21 up, which is spelled out here.
 */
function groupThousands(whole: number): string {
  const text = String(whole);
  const exponential = /^(\d)(?:\.(\d+))?e\+(\d+)$/.exec(text);
  const digits = exponential
    ? `${exponential[1]}${(exponential[2] ?? '').padEnd(Number(exponential[3]), '0')}`
    : text;
  return digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/** '₦' + thousands separators + 0 decimals (docs/product.md#constants). Missing or non-finite amounts show ₦0. */
export function formatNaira(amount: number | null | undefined): string {
  const value = typeof amount === 'number' && Number.isFinite(amount) ? amount : 0;
  const rounded = Math.round(value);
  // Avoid "-₦0" for tiny negatives that round to zero.
  const sign = rounded < 0 ? '-' : '';
  return `${sign}${CURRENCY_SYMBOL}${groupThousands(Math.abs(rounded))}`;
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
