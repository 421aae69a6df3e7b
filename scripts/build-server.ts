/**
 * Builds the server into plain JavaScript (`dist/server/main.js`, and `admin.js` for the
 * operators' command line), so an instance starts by loading one file instead of compiling
 * its TypeScript on every start, as tsx did (a fresh container compiled every module first).
 *
 * Packages stay in node_modules. The server reads SQL files that sit beside its modules
 * (migrations, the ledger's functions) through `import.meta.url`; in the bundle each module
 * keeps its own source location for that, so the built server reads them from src/server/db.
 */
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_DIST = path.join(root, 'dist/server');

/** `import.meta.url` of each bundled module → its source file's URL, found from the bundle's. */
function sourceLocations(outdir: string): Plugin {
  return {
    name: 'source-locations',
    setup(esbuild) {
      esbuild.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
        const source = await readFile(file, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const fromBundle = path.relative(outdir, file).split(path.sep).join('/');
        const location = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', location), loader: 'ts' };
      });
    },
  };
}

/**
 * Builds beside `outdir` and then puts the build in its place, so a failed build leaves the
 * last one whole (chunk names carry a hash: building into it would also leave old chunks).
 */
export async function buildServer(outdir = SERVER_DIST): Promise<void> {
  const next = `${outdir}.next`;
  await rm(next, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'src/server/main.ts', admin: 'scripts/admin.ts' },
    outdir: next,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    // Computed for `outdir`, where the files end up: `next` is its sibling.
    plugins: [sourceLocations(outdir)],
  });
  await rm(outdir, { recursive: true, force: true });
  await rename(next, outdir);
}

/** The built entry files: the server, and the operators' command line (`scripts/admin.ts`). */
export interface ServerBuild {
  main: string;
  admin: string;
}

export const serverBuildAt = (outdir: string): ServerBuild => ({
  main: path.join(outdir, 'main.js'),
  admin: path.join(outdir, 'admin.js'),
});

/** Node's arguments that run a built file; its stack traces name the TypeScript sources. */
export const nodeArgsFor = (file: string): string[] => ['--enable-source-maps', file];

/**
 * A build of its own for a run of tests or of a local topology, so runs side by side never
 * rebuild each other's files; `remove` deletes it. It sits under node_modules/.cache because
 * the bundle finds its packages the way Node does, in a node_modules above it.
 */
export async function buildServerForRun(): Promise<ServerBuild & { remove: () => Promise<void> }> {
  const cache = path.join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const outdir = await mkdtemp(path.join(cache, 'pluckers-server-'));
  await buildServer(outdir);
  return { ...serverBuildAt(outdir), remove: () => rm(outdir, { recursive: true, force: true }) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await buildServer();
  console.info(`Server built in ${path.relative(root, SERVER_DIST)}`);
}
