/**
 * Text from a place anyone can write (a query string in a link someone sent): shown only as
 * plain text, on one line, with control and invisible formatting characters removed (they can
 * reorder what a reader sees) and cut at `limit` characters so it cannot fill the screen.
 */
export function untrustedText(value: string | null | undefined, limit: number): string {
  if (!value) return '';
  const oneLine = value
    // Control characters and bidi/zero-width formatting (Cc, Cf): never meant for display here.
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const characters = Array.from(oneLine);
  if (characters.length <= limit) return oneLine;
  return `${characters
    .slice(0, limit - 1)
    .join('')
    .trimEnd()}…`;
}
