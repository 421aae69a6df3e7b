/** JSON on one line, for audit before/after snapshots: short enough for a table cell. */
export function compactJson(value: unknown): string {
  if (value === null || value === undefined) return '—';
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** The first 8 characters of a UUID: enough to tell rows apart in a table. */
export function shortId(id: string): string {
  return id.length > 12 ? id.slice(0, 8) : id;
}

/** A 64-character hash, first 12 and last 6 characters. */
export function shortHash(hash: string): string {
  return hash.length > 24 ? `${hash.slice(0, 12)}…${hash.slice(-6)}` : hash;
}

/** 'entry_fee' → 'Entry fee'. */
export function humanise(value: string): string {
  const words = value
    .replace(/[_.:-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
