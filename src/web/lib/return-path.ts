/*
 * Where to go after logging in: the page that was asked for, carried as
 * /login?next=<path>. Only a path of this site is ever followed: anything that would leave it
 * (https://…, //host, /\host, javascript:) is ignored, so the parameter cannot be used to send
 * a player who just typed their password somewhere else.
 */

const NEXT = 'next';

/** The path to return to, or null when `raw` is missing or not a path of this site. */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  try {
    const origin = window.location.origin;
    // The URL parser also drops tabs and newlines ('/\t/host'): the origin check sees the result.
    const url = new URL(raw, origin);
    if (url.origin !== origin) return null;
    // Auth pages would only loop back here.
    if (/^\/login$/i.test(url.pathname) || /auth/i.test(url.pathname)) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** /login, remembering the current page when it is one worth coming back to. */
export function loginHref(): string {
  const { pathname, search, hash } = window.location;
  const here = safeReturnPath(`${pathname}${search}${hash}`);
  if (!here || here === '/' || /^\/home$/i.test(pathname)) return '/login';
  return `/login?${NEXT}=${encodeURIComponent(here)}`;
}

/** The return path a /login address carries (its ?next=), checked. */
export function returnPathFrom(search: string): string | null {
  return safeReturnPath(new URLSearchParams(search).get(NEXT));
}
