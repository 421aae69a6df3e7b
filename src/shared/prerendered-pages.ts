/**
 * The pages the web build prerenders, so their first response already shows them:
 * the public pages, and the signed-in shell at / and /Home (navigation, hero, tab bar, the
 * games' loading state; nothing about the player, whom the server cannot know). Each is
 * written to dist/web/<file>; the server answers its paths with it (plugins/spa.ts), matched
 * without regard to case like the app's routes, and the service worker precaches it under its
 * path. Any other path gets index.html, rendered in the browser.
 */
export interface PrerenderedPage {
  /** The route the build renders. */
  path: string;
  file: string;
  /** Lower-case paths answered with it. */
  paths: string[];
  /** The signed-in shell: a visitor without a stored token is sent to /login first. */
  shell: boolean;
}

const publicPage = (path: string): PrerenderedPage => ({
  path,
  file: `${path.slice(1)}.html`,
  paths: [path.toLowerCase()],
  shell: false,
});

export const PRERENDERED_PAGES: readonly PrerenderedPage[] = [
  publicPage('/login'),
  publicPage('/Signup'),
  publicPage('/ForgotPassword'),
  publicPage('/Terms'),
  publicPage('/Privacy'),
  publicPage('/GameRules'),
  publicPage('/SupportCenter'),
  { path: '/Home', file: 'Home.html', paths: ['/home', '/'], shell: true },
];

/** The prerendered page answering `pathname`, if there is one. */
export function prerenderedPage(pathname: string): PrerenderedPage | undefined {
  const path = pathname.toLowerCase();
  return PRERENDERED_PAGES.find((page) => page.paths.includes(path));
}
