import { DEFAULT_PHONE_PREFIX } from './constants.ts';

/**
 * Spec §5: remove spaces, hyphens and brackets; keep a number starting with +;
 * otherwise drop a leading 0 and prefix +234.
 */
export function normalisePhone(input: string): string {
  const compact = input.replace(/[\s\-()[\]{}]/g, '');
  if (compact === '') return '';
  if (compact.startsWith('+')) return compact;
  const national = compact.startsWith('0') ? compact.slice(1) : compact;
  return `${DEFAULT_PHONE_PREFIX}${national}`;
}
