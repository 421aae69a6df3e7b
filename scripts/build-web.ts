/**
 * Builds the web app, pre-compresses it for the server, and enforces the JavaScript budgets of
 * docs/decisions.md#budgets, 100 KB gzip each:
 * - /login: the entry chunk, its static imports and the login route's chunk;
 * - /Home: the same entry, the lazily loaded protected shell (`app/guards.tsx`: guard, layout,
 *   TanStack Query) and the Home route's chunk, each with its static imports.
 * A module's chunk is the one named after it in Vite's manifest or, when a chunk group of
 * vite.config.ts took it in, the chunk that holds it (.vite/chunk-modules.json).
 * The pages of shared/prerendered-pages.ts are rendered first (scripts/prerender-web.ts) and
 * written beside index.html.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { build } from 'vite';
import { PRERENDERED_PAGES } from '../src/shared/prerendered-pages.ts';
import { prerenderedPages, renderPages } from './prerender-web.ts';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export const LOGIN_BUDGET_BYTES = 100 * 1024;
export const HOME_BUDGET_BYTES = 100 * 1024;
const distDir = path.resolve('dist/web');
const LOGIN_MODULE = 'features/auth/routes/LoginPage.tsx';
const PROTECTED_SHELL_MODULE = 'app/guards.tsx';
const HOME_MODULE = 'features/games/routes/HomePage.tsx';

export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  /** The source modules it holds, relative to src/web (from .vite/chunk-modules.json). */
  modules?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** A chunk plus everything it imports statically: what the browser must fetch to run it. */
export function staticClosure(
  manifest: Manifest,
  key: string,
  seen = new Set<string>(),
): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(manifest, imported, seen);
  return seen;
}

export async function gzipSize(file: string): Promise<number> {
  return (await gzipAsync(await readFile(path.join(distDir, file)), { level: 9 })).length;
}

async function precompress(manifest: Manifest): Promise<void> {
  const files = new Set<string>(['index.html', ...PRERENDERED_PAGES.map((page) => page.file)]);
  for (const chunk of Object.values(manifest)) {
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
  }
  await Promise.all(
    [...files].map(async (file) => {
      const source = await readFile(path.join(distDir, file));
      const [gz, br] = await Promise.all([
        gzipAsync(source, { level: 9 }),
        brotliAsync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      ]);
      await Promise.all([
        writeFile(path.join(distDir, `${file}.gz`), gz),
        writeFile(path.join(distDir, `${file}.br`), br),
      ]);
    }),
  );
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Vite's manifest, each chunk with the modules it holds: a module that a chunk group of
 * vite.config.ts took in (the protected shell) has no manifest key of its own.
 */
export async function readManifest(): Promise<Manifest> {
  const manifest = JSON.parse(
    await readFile(path.join(distDir, '.vite/manifest.json'), 'utf8'),
  ) as Manifest;
  const modules = JSON.parse(
    await readFile(path.join(distDir, '.vite/chunk-modules.json'), 'utf8'),
  ) as Record<string, string[]>;
  for (const chunk of Object.values(manifest)) chunk.modules = modules[chunk.file];
  return manifest;
}

/** The chunks each budgeted screen needs before it shows (also measured by `npm run bench`). */
export function screenBudgets(
  manifest: Manifest,
): Array<{ screen: string; limit: number; chunks: Set<string> }> {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('no entry chunk in the Vite manifest');
  // The chunk named after the module, or else the one that holds it.
  const chunkKey = (module: string) => {
    const key =
      Object.keys(manifest).find((candidate) => candidate.endsWith(module)) ??
      Object.keys(manifest).find((candidate) =>
        manifest[candidate]?.modules?.some((held) => held.endsWith(module)),
      );
    if (!key) throw new Error(`no chunk for ${module} in the Vite manifest`);
    return key;
  };
  const entryClosure = staticClosure(manifest, entryKey);
  return [
    {
      screen: '/login',
      limit: LOGIN_BUDGET_BYTES,
      chunks: new Set([...entryClosure, ...staticClosure(manifest, chunkKey(LOGIN_MODULE))]),
    },
    {
      // Protected pages render inside the lazily loaded shell, so it is part of Home's cost.
      screen: '/Home',
      limit: HOME_BUDGET_BYTES,
      chunks: new Set([
        ...entryClosure,
        ...staticClosure(manifest, chunkKey(PROTECTED_SHELL_MODULE)),
        ...staticClosure(manifest, chunkKey(HOME_MODULE)),
      ]),
    },
  ];
}

export async function buildWeb(): Promise<void> {
  // Whoever calls (Vitest sets NODE_ENV=test), the budget is about React's production build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const bodies = await renderPages();
    await build({ logLevel: 'warn', mode: 'production', plugins: [prerenderedPages(bodies)] });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  const manifest = await readManifest();
  await precompress(manifest);

  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('no entry chunk in the Vite manifest');

  const sizeOf = async (keys: Iterable<string>) => {
    let total = 0;
    for (const key of keys) total += await gzipSize(manifest[key]?.file ?? '');
    return total;
  };
  const entryClosure = staticClosure(manifest, entryKey);
  console.info('JavaScript each screen needs before it shows (gzip):');
  console.info(`  ${'entry (app shell)'.padEnd(60)} ${kb(await sizeOf(entryClosure))}`);
  // Each page by its module, whether its chunk is named after it or a group chunk holds it.
  const pages = new Map<string, string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (key.endsWith('Page.tsx')) pages.set(key, key);
    for (const held of chunk.modules ?? []) {
      if (held.endsWith('Page.tsx') && !pages.has(held)) pages.set(held, key);
    }
  }
  for (const [page, key] of [...pages].sort(([a], [b]) => a.localeCompare(b))) {
    const needed = new Set([...entryClosure, ...staticClosure(manifest, key)]);
    console.info(`  ${page.padEnd(60)} ${kb(await sizeOf(needed))}`);
  }

  const budgets = screenBudgets(manifest);
  const over: string[] = [];
  for (const budget of budgets) {
    const bytes = await sizeOf(budget.chunks);
    const verdict = bytes <= budget.limit ? 'within' : 'OVER';
    const spare = budget.limit - bytes;
    console.info(
      `JavaScript to show ${budget.screen}: ${kb(bytes)} gzip (${verdict} the ${kb(budget.limit)} budget, ${spare >= 0 ? `${spare} bytes to spare` : `${-spare} bytes over`})`,
    );
    if (bytes > budget.limit) {
      over.push(
        `${budget.screen} needs ${kb(bytes)} of JavaScript, over the ${kb(budget.limit)} budget`,
      );
    }
  }
  if (over.length > 0) throw new Error(over.join('\n'));
  await writeFile(path.join(distDir, 'build-stamp.json'), JSON.stringify({ builtAt: Date.now() }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildWeb().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
