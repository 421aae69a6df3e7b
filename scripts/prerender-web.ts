/**
 * The build's prerender, so that the first response already shows the page. Before the browser
 * build, the app is built once more for Node (src/web/app/prerender.tsx) and rendered at each
 * path of shared/prerendered-pages.ts; the browser build then writes each page as a copy of its
 * index.html with that HTML in #root (data-paths naming the paths it was rendered for, which
 * main.tsx checks before hydrating), the stylesheet inline instead of a render-blocking request,
 * and the text font preloaded. The pages are emitted into the bundle before vite-plugin-pwa
 * generates the service worker, so it precaches them too.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'vite';
import { PRERENDERED_PAGES, type PrerenderedPage } from '../src/shared/prerendered-pages.ts';
import { pageTitle } from '../src/web/app/page-titles.ts';
import { criticalCss } from './critical-css.ts';

const ssrOutDir = path.resolve('dist/prerender');

/** Each page's rendered #root, by its path. */
export async function renderPages(): Promise<Map<string, string>> {
  await build({
    logLevel: 'warn',
    mode: 'production',
    build: {
      ssr: path.resolve('src/web/app/prerender.tsx'),
      outDir: ssrOutDir,
      emptyOutDir: true,
      copyPublicDir: false,
      manifest: false,
      // One file: the browser's chunk groups (vite.config.ts) would split Node's copy into
      // chunks that import one another in a cycle.
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
  try {
    const { renderPage } = (await import(
      pathToFileURL(path.join(ssrOutDir, 'prerender.js')).href
    )) as { renderPage: (path: string) => Promise<string> };
    const bodies = new Map<string, string>();
    for (const page of PRERENDERED_PAGES) bodies.set(page.path, await renderPage(page.path));
    return bodies;
  } finally {
    await rm(ssrOutDir, { recursive: true, force: true });
  }
}

/**
 * The page: index.html with its #root filled and the part of the stylesheet it uses inline
 * (scripts/critical-css.ts), its icon, and its text font preloaded. What it needs only once it
 * is shown, the whole stylesheet and the manifest, is linked `data-rel`, for the boot script to turn on after the
 * first paint (shared/boot-script.ts).
 */
export function pageHtml(
  indexHtml: string,
  page: PrerenderedPage,
  body: string,
  css: { href: string; text: string },
  favicon: string,
): string {
  const replaceOnce = (html: string, search: string | RegExp, replacement: string) => {
    const found = typeof search === 'string' ? html.includes(search) : search.test(html);
    if (!found) throw new Error(`prerender: ${String(search)} is not in index.html`);
    return html.replace(search, () => replacement);
  };
  let html = indexHtml;
  // The boot script starts the entry after the first paint (shared/boot-script.ts): neither it
  // nor its preloads are in the page.
  const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(html);
  if (!entry?.[1]) throw new Error('prerender: no entry script in index.html');
  html = html.replace(entry[0], '').replace(/<link rel="modulepreload"[^>]*>\s*/g, '');
  html = replaceOnce(
    html,
    '<html lang="en">',
    `<html lang="en" data-entry="${entry[1]}"${page.shell ? ' data-shell' : ''}>`,
  );
  html = replaceOnce(
    html,
    new RegExp(`<link rel="stylesheet"[^>]*href="${css.href}"[^>]*>`),
    `<style>${criticalCss(css.text, `${indexHtml}${body}`)}</style>\n    <link data-rel="stylesheet" href="${css.href}">`,
  );
  html = replaceOnce(html, /<title>[^<]*<\/title>/, `<title>${pageTitle(page.path)}</title>`);
  html = replaceOnce(html, '<link rel="manifest"', '<link data-rel="manifest"');
  // The icon inside the page too: browsers ask for it as soon as the page has loaded, which on
  // a busy phone can be before the first paint.
  html = replaceOnce(
    html,
    'href="/favicon.svg"',
    `href="data:image/svg+xml,${encodeURIComponent(favicon)}"`,
  );
  return replaceOnce(
    html,
    '<div id="root"></div>',
    `<div id="root" data-paths="${page.paths.join(' ')}">${body}</div>`,
  );
}

/**
 * The browser build's side: preloads the text font from index.html (every page's template)
 * and emits the prerendered pages.
 */
export function prerenderedPages(bodies: Map<string, string>): Plugin {
  return {
    name: 'pluckers:prerendered-pages',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') throw new Error('prerender: no index.html in the bundle');
      const files = Object.values(bundle);
      const font = files.find((file) => /space-grotesk-core-[^/]*\.woff2$/.test(file.fileName));
      const cssFile = files.find(
        (file) => file.type === 'asset' && /^assets\/index-[^/]*\.css$/.test(file.fileName),
      );
      if (!font || cssFile?.type !== 'asset') {
        throw new Error('prerender: the text font or the stylesheet is missing from the bundle');
      }
      const preload = `<link rel="preload" href="/${font.fileName}" as="font" type="font/woff2" crossorigin>`;
      const indexHtml = String(index.source).replace('</title>', () => `</title>\n    ${preload}`);
      index.source = indexHtml;
      const css = { href: `/${cssFile.fileName}`, text: String(cssFile.source) };
      const favicon = readFileSync(path.resolve('src/web/public/favicon.svg'), 'utf8');
      for (const page of PRERENDERED_PAGES) {
        const body = bodies.get(page.path);
        if (body === undefined) throw new Error(`prerender: ${page.path} was not rendered`);
        this.emitFile({
          type: 'asset',
          fileName: page.file,
          source: pageHtml(indexHtml, page, body, css, favicon),
        });
      }
    },
  };
}

// `tsx scripts/prerender-web.ts` prints the rendered pages as JSON (src/web/app/prerender.test.tsx
// hydrates them).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // As scripts/build-web.ts builds it, whoever runs this (Vitest sets NODE_ENV=test).
  process.env.NODE_ENV = 'production';
  renderPages().then(
    (bodies) => process.stdout.write(JSON.stringify(Object.fromEntries(bodies))),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
