import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { playerFilesList } from './scripts/player-files.ts';
import { bootScript } from './src/shared/boot-script.ts';
import { pwaOptions } from './src/web/app/pwa/pwa-options.ts';

const fromRoot = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const webRoot = fromRoot('./src/web');

/**
 * Chunks. The server speaks HTTP/1.1, where every file costs a round trip on one of six
 * connections, so the two screens with a budget (DESIGN §6) load a few larger files rather than
 * a dozen small ones:
 * - index (the entry): everything main.tsx imports statically, plus the logo and buttons that
 *   /login and every signed-in screen show;
 * - signed-in: the protected shell (app/guards.tsx: layout, navigation, TanStack Query), the
 *   components most signed-in screens share, and Home, where a signed-in player lands;
 * - auth-ui: the frame and fields of the sign-in screens.
 * Every other module is split automatically (one chunk per lazy screen, shared chunks).
 */
const SIGNED_IN =
  /node_modules[\\/]@tanstack[\\/]|src[\\/]web[\\/](app[\\/](guards|layout[\\/](AppLayout|Navbar|Footer))\.tsx|lib[\\/]query-client\.ts|features[\\/]notifications[\\/]api[\\/]get-notifications\.ts|components[\\/]ui[\\/](Avatar|VerifiedTick|GameCard|EmptyState|LoadingState|Tabs)\.tsx|features[\\/]games[\\/](routes[\\/]HomePage|components[\\/](Hero|KnowMore))\.tsx|features[\\/]games[\\/](api[\\/]get-games|lib[\\/]returning)\.ts)|src[\\/]shared[\\/](money|games)\.ts/;
const WITH_ENTRY = /src[\\/]web[\\/]components[\\/]ui[\\/](Logo|Button)\.tsx/;
const AUTH_UI =
  /src[\\/]web[\\/](features[\\/]auth[\\/]routes[\\/]AuthShell|components[\\/]ui[\\/]Field)\.tsx/;

/** The modules the entry imports statically, directly or not. */
function entryClosure(ctx: { getModuleInfo(id: string): { importedIds: string[] } | null }) {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const imported of ctx.getModuleInfo(id)?.importedIds ?? []) visit(imported);
  };
  visit(path.join(webRoot, 'index.html'));
  visit(path.join(webRoot, 'main.tsx'));
  return seen;
}

function chunkGroups() {
  let initial: Set<string> | undefined;
  return [
    {
      debugName: 'index, signed-in, auth-ui',
      name: (id: string, ctx: Parameters<typeof entryClosure>[0]) => {
        initial ??= entryClosure(ctx);
        if (initial.has(id) || WITH_ENTRY.test(id)) return 'index';
        if (SIGNED_IN.test(id)) return 'signed-in';
        if (AUTH_UI.test(id)) return 'auth-ui';
        return null;
      },
    },
  ];
}

/**
 * Writes which source modules each chunk holds to .vite/chunk-modules.json: a module a group
 * took in (app/guards.tsx) has no key of its own in Vite's manifest, and the budgets of
 * scripts/build-web.ts look chunks up by module.
 */
function chunkModules(): Plugin {
  return {
    name: 'pluckers:chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      const modules: Record<string, string[]> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        modules[output.fileName] = output.moduleIds
          .filter((id) => id.startsWith(`${webRoot}${path.sep}`))
          .map((id) => path.relative(webRoot, id).split(path.sep).join('/'));
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/chunk-modules.json',
        source: JSON.stringify(modules),
      });
    },
  };
}

/**
 * The screens that are not a signed-in player's: the operator console, the sign-in screens and
 * the public pages. The player screens' code downloaded ahead of need (scripts/player-files.ts)
 * leaves out what only they load.
 */
const NOT_PLAYER_SCREENS = [
  'features/admin/',
  'features/auth/',
  'features/static-pages/',
  'app/layout/PublicLayout.tsx',
  'app/NotFoundPage.tsx',
].map((module) => path.join(webRoot, module));

/** The boot script (shared/boot-script.ts), first in every page's head. */
function bootScriptTag(): Plugin {
  return {
    name: 'pluckers:boot-script',
    transformIndexHtml: () => [{ tag: 'script', children: bootScript(), injectTo: 'head-prepend' }],
  };
}

export default defineConfig({
  root: webRoot,
  publicDir: fromRoot('./src/web/public'),
  plugins: [
    react(),
    tailwindcss(),
    bootScriptTag(),
    chunkModules(),
    playerFilesList((id) => NOT_PLAYER_SCREENS.some((prefix) => id.startsWith(prefix))),
    VitePWA(pwaOptions),
  ],
  resolve: {
    alias: {
      '@shared': fromRoot('./src/shared'),
      '@web': fromRoot('./src/web'),
    },
  },
  build: {
    outDir: fromRoot('./dist/web'),
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    // Budget reporting lives in scripts/build-web.ts; Vite's own warning is noise here.
    reportCompressedSize: false,
    modulePreload: { polyfill: false },
    // The CSP allows fonts from 'self' only, so the small naira font must stay a file.
    assetsInlineLimit: (file) => (file.endsWith('.woff2') ? false : undefined),
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Exactly the modules named above: pulling in their dependencies would move the
          // entry's own modules (session, HTTP client) into a lazy chunk.
          includeDependenciesRecursively: false,
          groups: chunkGroups(),
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
});
