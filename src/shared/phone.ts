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

/** A Nigerian number as stored (+234 and ten digits, the first 7, 8 or 9). */
const NIGERIAN_STORED = /^\+234([789]\d{2})(\d{3})(\d{4})$/;

/**
 * A stored number as its owner reads it: a Nigerian number in its national form, grouped as it is
 * said aloud (+2348031234568 → 0803 123 4568); any other number as stored, with its country code.
 */
export function formatPhone(stored: string): string {
  const nigerian = NIGERIAN_STORED.exec(stored);
  return nigerian ? `0${nigerian[1]} ${nigerian[2]} ${nigerian[3]}` : stored;
}
