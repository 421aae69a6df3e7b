const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

const pad = (value: number) => String(value).padStart(2, '0');

function valid(year: number, month: number, day: number): string | null {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * A provider's date of birth as YYYY-MM-DD. Dojah writes NIN dates as 1993-05-06 and BVN dates
 * as 01-January-1907 (its "BVN with selfie" page) or 18-05-1992 (vNIN); all are read here, and
 * anything else is null rather than a guess.
 */
export function parseProviderDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (match) return valid(Number(match[1]), Number(match[2]), Number(match[3]));
  match = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})$/.exec(text);
  if (match) return valid(Number(match[3]), Number(match[2]), Number(match[1]));
  match = /^(\d{1,2})-([A-Za-z]+)-(\d{4})$/.exec(text);
  if (match) {
    const name = (match[2] ?? '').toLowerCase();
    const month = MONTHS.findIndex((candidate) =>
      name.length === 3 ? candidate.startsWith(name) : candidate === name,
    );
    if (month >= 0) return valid(Number(match[3]), month + 1, Number(match[1]));
  }
  return null;
}
