/**
 * Whether a request's If-None-Match names `etag`, by the weak comparison RFC 9110 prescribes
 * for it (W/ prefixes ignored): `*`, or one of its comma-separated tags.
 */
export function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || (tag.startsWith('W/') ? tag.slice(2) : tag) === opaque) return true;
  }
  return false;
}
