/**
 * Where the API is. The web app is normally served by the API's own server, so paths stay
 * relative; served from another host, its index.html names the API's origin in
 * `<meta name="pluckers-api" content="https://api.example.ng">` (that server then lists the
 * web app's origin in CORS_ORIGINS). Read at run time rather than baked in by the build, so one
 * build can be deployed next to any API.
 */
export function apiOrigin(): string {
  // The build's prerender has no document: its pages keep relative paths.
  if (typeof document === 'undefined') return '';
  const content = document
    .querySelector<HTMLMetaElement>('meta[name="pluckers-api"]')
    ?.content.trim();
  if (!content || !URL.canParse(content)) return '';
  const url = new URL(content);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : '';
}

/**
 * A URL the API handed out or a path on it (`/api/v1/…`, `/uploads/avatars/…`), made to reach
 * the API from wherever the page is; absolute URLs (a provider's checkout) are left as they are.
 */
export function apiUrl(pathOrUrl: string): string {
  if (!pathOrUrl.startsWith('/') || pathOrUrl.startsWith('//')) return pathOrUrl;
  return `${apiOrigin()}${pathOrUrl}`;
}
