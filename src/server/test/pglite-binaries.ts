import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Under the names PGlite's options give them, so they are passed on as they are. */
export interface PgliteBinaries {
  pgliteWasmModule: WebAssembly.Module;
  fsBundle: Blob;
}

let binaries: Promise<PgliteBinaries> | undefined;

/**
 * PGlite's compiled PostgreSQL and its file bundle, read and compiled once per process. Compiling
 * the WebAssembly is a third of what opening a database costs, so a process that opens many
 * (a test worker, a warm test server) shares one compilation.
 */
export function loadPgliteBinaries(): Promise<PgliteBinaries> {
  binaries ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasm, bundle] = await Promise.all([
      readFile(path.join(dist, 'pglite.wasm')),
      readFile(path.join(dist, 'pglite.data')),
    ]);
    return { pgliteWasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([bundle]) };
  })();
  return binaries;
}
