import { parse } from 'regexparam';

/**
 * Spec routes come in several spellings (/TopUp and /topup, /MySubmissions and /mysubmissions),
 * so every route matches case-insensitively.
 */
export function caseInsensitiveParser(route: string, loose?: boolean) {
  const { pattern, keys } = parse(route, loose);
  return { pattern: new RegExp(pattern.source, 'i'), keys };
}
