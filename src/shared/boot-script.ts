import { STORAGE_KEYS } from './constants.ts';

/** localStorage: this device has shown Home before (the compact hero on phones). */
export const HOME_SEEN_KEY = 'pluckers:homeSeen';

/**
 * The one inline script of the web app's pages, in <head> so it runs before the first paint
 * (issue 18). It marks <html data-returning> for a device that has seen Home, which sizes the
 * hero (Tailwind's `returning:` variant), and on the prerendered signed-in shell
 * (<html data-shell>) sends a visitor without a stored token to /login before the shell could
 * show. The build writes it into index.html (vite.config.ts); the server allows exactly this
 * text by its hash in the Content-Security-Policy (plugins/security.ts). A function, so that
 * the web app's bundles, which import the key above, leave it out.
 */
export const bootScript = (): string =>
  `(function(){var d=document.documentElement;try{if(localStorage.getItem(${JSON.stringify(HOME_SEEN_KEY)})==="1")d.setAttribute("data-returning","");if(d.hasAttribute("data-shell")&&!localStorage.getItem(${JSON.stringify(STORAGE_KEYS.token)})){d.style.display="none";location.replace("/login")}}catch(e){}})()`;
