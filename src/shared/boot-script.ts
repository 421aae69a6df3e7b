import { STORAGE_KEYS } from './constants.ts';

/** localStorage: this device has shown Home before (the compact hero on phones). */
export const HOME_SEEN_KEY = 'pluckers:homeSeen';

/** The unicode-range of the naira sign's own face (index.html), as the browser serialises it. */
const NAIRA_FACE_RANGE = 'U+20A6';

/** How long a prerendered page waits for its first paint before starting the app anyway. */
const FIRST_PAINT_WAIT_MS = 3_000;

/**
 * The one inline script of the web app's pages, in <head> so it runs before the first paint.
 * It marks <html data-returning> for a device that has seen Home, which sizes the
 * hero (Tailwind's `returning:` variant), and on the prerendered signed-in shell
 * (<html data-shell>) sends a visitor without a stored token to /login before the shell could
 * show. It also cancels every native form submission: the app's forms are sent by script, and
 * one pressed on the prerendered HTML before the script has taken over must not put the
 * password in an address (GET is a form's default). Such a press on a prerendered form
 * (`data-queue-submit`, components/ui/LiveForm.tsx) is held instead of lost: the form is marked
 * `data-queued`, which shows its "still loading" note, and LiveForm sends it once React has
 * taken the form over (`data-live`). The event goes no further, so React, listening on #root
 * while it hydrates, does not also handle it.
 *
 * On a prerendered page (<html data-entry>) nothing but the page and its preloaded text font
 * is fetched before its first contentful paint: the links the page marks `data-rel` (the whole
 * stylesheet and the manifest) are turned on once the browser reports that paint, and the app's
 * script starts when the stylesheet is in, so nothing React draws is ever unstyled. The page
 * needs none of them to show, and a request begun before the paint competes with it for a slow
 * line (and, in Lighthouse's simulation, counts towards the largest paint). Browsers without paint timing start them one
 * frame after the first, as before; a page that never paints (a hidden tab) starts them after
 * FIRST_PAINT_WAIT_MS anyway. The naira sign's face (index.html: a file of its own) starts
 * loading then too: a browser fetches it only once text needs the sign, and fetched when the
 * first amount was drawn, it arrived after that layout, and Chromium laid out the whole page
 * again with it (bench/RESULTS.md). Asked for by its face, not by the sign, which would also
 * fetch the latin-ext file whose range covers it.
 *
 * The build writes it into index.html (vite.config.ts); the server allows exactly this text by
 * its hash in the Content-Security-Policy (plugins/security.ts). A function, so that the web
 * app's bundles, which import the key above, leave it out.
 */
export const bootScript = (): string =>
  `(function(){var d=document.documentElement,a=d.getAttribute("data-entry");d.addEventListener("submit",function(e){e.preventDefault();var f=e.target;if(f.hasAttribute("data-queue-submit")&&!f.hasAttribute("data-live")){f.setAttribute("data-queued","");e.stopPropagation()}},true);try{if(localStorage.getItem(${JSON.stringify(HOME_SEEN_KEY)})==="1")d.setAttribute("data-returning","");if(d.hasAttribute("data-shell")&&!localStorage.getItem(${JSON.stringify(STORAGE_KEYS.token)})){d.style.display="none";location.replace("/login");return}}catch(e){}if(!a)return;var started=false;function start(){if(started)return;started=true;var l=document.querySelectorAll("link[data-rel]"),waiting=l.length;function run(){if(--waiting===-1){var s=document.createElement("script");s.type="module";s.src=a;document.head.appendChild(s)}}for(var i=0;i<l.length;i++){var k=l[i];if(k.getAttribute("data-rel")==="stylesheet")k.onload=k.onerror=run;else waiting--;k.rel=k.getAttribute("data-rel")}var F=document.fonts;if(F&&F.forEach)F.forEach(function(f){if(f.unicodeRange===${JSON.stringify(NAIRA_FACE_RANGE)})f.load()["catch"](function(){})});run()}setTimeout(start,${FIRST_PAINT_WAIT_MS});var P=window.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){new P(function(list,observer){if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();setTimeout(start)}}).observe({type:"paint",buffered:true})}else requestAnimationFrame(function(){setTimeout(start)})})()`;
