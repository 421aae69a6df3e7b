import { STORAGE_KEYS } from './constants.ts';

/** localStorage: this device has shown Home before (the compact hero on phones). */
export const HOME_SEEN_KEY = 'pluckers:homeSeen';

/**
 * The one inline script of the web app's pages, in <head> so it runs before the first paint
 * (issue 18). It marks <html data-returning> for a device that has seen Home, which sizes the
 * hero (Tailwind's `returning:` variant), and on the prerendered signed-in shell
 * (<html data-shell>) sends a visitor without a stored token to /login before the shell could
 * show. It also cancels every native form submission: the app's forms are sent by script, and
 * one pressed on the prerendered HTML before the script has taken over must not put the
 * password in an address (GET is a form's default). On a prerendered page (<html data-entry>)
 * it starts the app's script only once the page has been painted: the page needs no script to
 * show, and the script's download no longer competes with the first paint (nor, in Lighthouse's
 * simulation, counts towards it). The build writes it into index.html
 * (vite.config.ts); the server allows exactly this text by its hash in the
 * Content-Security-Policy (plugins/security.ts). A function, so that the web app's bundles,
 * which import the key above, leave it out.
 */
export const bootScript = (): string =>
  `(function(){var d=document.documentElement,a=d.getAttribute("data-entry");d.addEventListener("submit",function(e){e.preventDefault()},true);try{if(localStorage.getItem(${JSON.stringify(HOME_SEEN_KEY)})==="1")d.setAttribute("data-returning","");if(d.hasAttribute("data-shell")&&!localStorage.getItem(${JSON.stringify(STORAGE_KEYS.token)})){d.style.display="none";location.replace("/login");return}}catch(e){}if(a)requestAnimationFrame(function(){setTimeout(function(){var s=document.createElement("script");s.type="module";s.src=a;document.head.appendChild(s)})})})()`;
