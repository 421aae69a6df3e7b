/** happy-dom's handle on the page (window.happyDOM), which the DOM typings don't know. */
interface HappyDomWindow {
  happyDOM: { setURL(url: string): void };
}

/** The URL happy-dom starts every test file on (Vitest's default). */
export const DEFAULT_PAGE_URL = 'http://localhost:3000/';

/**
 * Puts the page at `url` as if the browser had loaded it there: location, origin (so relative
 * `/api/v1/...` fetches reach that server) and history follow; nothing is fetched or rendered.
 *
 * Note: like a browser's devtools, happy-dom prints each failed response ("GET …/api/v1/user 401
 * (Unauthorized)") and refused connection to the terminal. Those lines do not go through the
 * test's console.error, so they never fail a test; they are expected where a test provokes them.
 */
export function setPageUrl(url: string): void {
  (window as unknown as HappyDomWindow).happyDOM.setURL(url);
}
