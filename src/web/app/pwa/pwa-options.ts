import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { VitePWAOptions } from 'vite-plugin-pwa';
import { API_CACHE } from '../../lib/cache-names.ts';
import { HOME_TITLE } from '../page-titles.ts';

/*
 * The installable app: vite-plugin-pwa writes the web app manifest and a Workbox
 * service worker (generateSW: no hand-written worker). Read by vite.config.ts at build time.
 */

const PAGE = '#0b0b0b';
const ICON_SIZES = [48, 72, 96, 128, 144, 152, 192, 256, 384, 512];

/**
 * The reads a player needs to look at offline: who they are and their settings (without them
 * the app would send them to /login), the game lists and a game, their submissions, wallet
 * history and notifications. GET only (Workbox's default): nothing that moves money is cached
 * or queued, and there is no background sync. Any origin, since the API may live on another
 * one (API_ORIGIN); Workbox wants a cross-origin pattern to match from the URL's start.
 */
export const API_READS =
  /^https?:\/\/[^/]+\/api\/v1\/(user|settings|game|game\/[^/?]+|category|plan|payment|withdrawal|notification|leaderboard|bank)(\?.*)?$/;

/**
 * Marks a read that Workbox answered from its cache (the network failed or took longer than
 * the timeout), so the app can say "Offline, last updated …". Serialised into the worker as
 * source text, so it must not use anything from around it.
 */
const markCachedReads = {
  cachedResponseWillBeUsed: async ({ cachedResponse }: { cachedResponse?: Response }) => {
    if (!cachedResponse) return null;
    const headers = new Headers(cachedResponse.headers);
    headers.set('x-pluckers-cached', '1');
    return new Response(await cachedResponse.blob(), {
      status: cachedResponse.status,
      statusText: cachedResponse.statusText,
      headers,
    });
  },
};

/**
 * The files only the console (/admin) needs: every chunk reachable from the entry, less those
 * still reachable when the console's chunks are left out (read from Vite's manifest, which is
 * written before the worker is generated). Players never download them ahead of need.
 */
async function consoleOnlyFiles(): Promise<Set<string>> {
  const manifest = JSON.parse(
    await readFile(new URL('../../../../dist/web/.vite/manifest.json', import.meta.url), 'utf8'),
  ) as Record<
    string,
    { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }
  >;
  const reachable = (skip: (key: string) => boolean) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || skip(key) || !manifest[key]) return;
      seen.add(key);
      for (const next of [
        ...(manifest[key].imports ?? []),
        ...(manifest[key].dynamicImports ?? []),
      ])
        visit(next);
    };
    for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
    return seen;
  };
  const players = reachable((key) => key.startsWith('features/admin/'));
  const files = new Set<string>();
  for (const key of reachable(() => false)) {
    const file = manifest[key]?.file;
    if (file && !players.has(key)) files.add(file);
  }
  return files;
}

export const pwaOptions: Partial<VitePWAOptions> = {
  // A new version waits until the player says "reload" (never a silent mix of versions).
  registerType: 'prompt',
  // Registered by src/web/app/pwa/register.ts after the page has loaded, lazily: the entry
  // stays within its JavaScript budget.
  injectRegister: false,
  manifest: {
    name: HOME_TITLE,
    short_name: 'Pluckers',
    description: 'Answer simple questions, win naira. One in five players wins.',
    id: '/',
    start_url: '/Home',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: PAGE,
    background_color: PAGE,
    lang: 'en-NG',
    categories: ['games', 'entertainment'],
    icons: [
      ...ICON_SIZES.map((size) => ({
        src: `/icons/icon-${size}.png`,
        sizes: `${size}x${size}`,
        type: 'image/png',
        purpose: 'any',
      })),
      ...[192, 512].map((size) => ({
        src: `/icons/maskable-${size}.png`,
        sizes: `${size}x${size}`,
        type: 'image/png',
        purpose: 'maskable',
      })),
    ],
    shortcuts: [
      { name: 'Home', url: '/Home', icons: [{ src: '/icons/icon-96.png', sizes: '96x96' }] },
      {
        name: 'Wallet',
        url: '/WithdrawFunds',
        icons: [{ src: '/icons/icon-96.png', sizes: '96x96' }],
      },
      {
        name: 'My submissions',
        url: '/MySubmissions',
        icons: [{ src: '/icons/icon-96.png', sizes: '96x96' }],
      },
    ],
  },
  workbox: {
    // The app shell, every player screen's code, styles and fonts: the app opens and its
    // static pages (Terms, Game rules…) read offline. The console's code is left out.
    // (The manifest's icons are fetched by the browser when it installs the app.)
    // Of the prerendered pages (shared/prerendered-pages.ts), the two a player opens the app on:
    // each carries the whole stylesheet, and all eight would add some 100 KB to the first
    // visit. Workbox answers /login with login.html and / with Home.html (directoryIndex); any
    // other path gets index.html, drawn in the browser.
    globPatterns: ['{index,login,Home}.html', 'assets/*.{js,css,woff2}', 'favicon.svg'],
    directoryIndex: 'Home.html',
    // Fonts for other scripts load (and are then kept, below) only if a page needs them.
    globIgnores: ['assets/space-grotesk-vietnamese*', 'assets/space-grotesk-latin-ext*'],
    maximumFileSizeToCacheInBytes: 600 * 1024,
    manifestTransforms: [
      async (entries) => {
        const consoleOnly = await consoleOnlyFiles();
        return { manifest: entries.filter((entry) => !consoleOnly.has(entry.url)), warnings: [] };
      },
    ],
    navigateFallback: '/index.html',
    // Server paths that are not screens of the app.
    navigateFallbackDenylist: [/^\/api\//, /^\/docs/, /\.[a-z0-9]+$/i],
    // One file: the Workbox runtime in sw.js rather than a second file beside it.
    inlineWorkboxRuntime: true,
    cleanupOutdatedCaches: true,
    // The Web Push handlers (notifications feature) join the generated worker once they exist.
    ...(existsSync(new URL('../../public/push-sw.js', import.meta.url))
      ? { importScripts: ['/push-sw.js'] }
      : {}),
    runtimeCaching: [
      {
        urlPattern: API_READS,
        method: 'GET',
        handler: 'NetworkFirst',
        options: {
          cacheName: API_CACHE,
          // On a connection that is there but barely, the saved copy after 4 s (the request
          // itself gives up after 20 s).
          networkTimeoutSeconds: 4,
          expiration: { maxEntries: 80, maxAgeSeconds: 7 * 24 * 60 * 60 },
          cacheableResponse: { statuses: [200] },
          plugins: [markCachedReads],
        },
      },
      {
        // Hashed files left out of the precache (the console's, the other fonts).
        urlPattern: ({ url }) => url.pathname.startsWith('/assets/'),
        handler: 'CacheFirst',
        options: {
          cacheName: 'pluckers-assets',
          expiration: { maxEntries: 60, maxAgeSeconds: 30 * 24 * 60 * 60 },
        },
      },
    ],
  },
};
