/**
 * Builds the web app, pre-compresses it for the server, and enforces the JavaScript budget of
 * DESIGN §6: the JavaScript needed to show /login (entry chunk, its static imports and the
 * login route's chunk) must stay within 100 KB gzip.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { build } from 'vite';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export const LOGIN_BUDGET_BYTES = 100 * 1024;
const distDir = path.resolve('dist/web');
const LOGIN_MODULE = 'features/auth/routes/LoginPage.tsx';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** A chunk plus everything it imports statically: what the browser must fetch to run it. */
function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(manifest, imported, seen);
  return seen;
}

async function gzipSize(file: string): Promise<number> {
  return (await gzipAsync(await readFile(path.join(distDir, file)), { level: 9 })).length;
}

async function precompress(manifest: Manifest): Promise<void> {
  const files = new Set<string>(['index.html']);
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

export async function buildWeb(): Promise<void> {
  await build({ logLevel: 'warn' });
  const manifest = JSON.parse(
    await readFile(path.join(distDir, '.vite/manifest.json'), 'utf8'),
  ) as Manifest;
  await precompress(manifest);

  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('no entry chunk in the Vite manifest');
  const loginKey = Object.keys(manifest).find((key) => key.endsWith(LOGIN_MODULE));
  if (!loginKey) throw new Error(`no chunk for ${LOGIN_MODULE} in the Vite manifest`);

  const sizeOf = async (keys: Iterable<string>) => {
    let total = 0;
    for (const key of keys) total += await gzipSize(manifest[key]?.file ?? '');
    return total;
  };
  const entryClosure = staticClosure(manifest, entryKey);
  console.info('JavaScript each screen needs before it shows (gzip):');
  console.info(`  ${'entry (app shell)'.padEnd(60)} ${kb(await sizeOf(entryClosure))}`);
  for (const key of Object.keys(manifest)
    .filter((k) => k.endsWith('Page.tsx'))
    .sort()) {
    const needed = new Set([...entryClosure, ...staticClosure(manifest, key)]);
    console.info(`  ${key.padEnd(60)} ${kb(await sizeOf(needed))}`);
  }

  const loginBytes = await sizeOf(new Set([...entryClosure, ...staticClosure(manifest, loginKey)]));
  const verdict = loginBytes <= LOGIN_BUDGET_BYTES ? 'within' : 'OVER';
  console.info(
    `JavaScript to show /login: ${kb(loginBytes)} gzip (${verdict} the ${kb(LOGIN_BUDGET_BYTES)} budget)`,
  );
  if (loginBytes > LOGIN_BUDGET_BYTES) {
    throw new Error(
      `/login needs ${kb(loginBytes)} of JavaScript, over the ${kb(LOGIN_BUDGET_BYTES)} budget`,
    );
  }
  await writeFile(path.join(distDir, 'build-stamp.json'), JSON.stringify({ builtAt: Date.now() }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  buildWeb().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
