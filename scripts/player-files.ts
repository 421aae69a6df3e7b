/**
 * The code files of the player screens that a page does not load to start, written by the
 * build beside index.html (`PLAYER_FILES_PATH`). A signed-in page downloads them into the
 * browser's cache while it is idle (src/web/lib/player-files.ts), so the next screen opens on
 * a connection that has just dropped, before a service worker serves the app. The page cannot
 * name the hashed files itself other than through import(), which also runs each screen's code
 * (and the schemas it parses with) on the main thread while Home is still loading.
 */
import type { Plugin } from 'vite';
import { PLAYER_FILES_PATH } from '../src/web/lib/player-files-path.ts';

/** The part of a Rollup output chunk (or asset) read here. */
interface OutputFile {
  type: 'chunk' | 'asset';
  fileName: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  facadeModuleId?: string | null;
}

/**
 * Every chunk the entries reach through imports and dynamic imports, except those reached only
 * through a screen that is not a player's (`notPlayers`: the module a lazily loaded chunk is
 * named after, such as the operator console or the sign-in screens) and those the entries
 * import statically (every page has them already), as root-relative URLs, sorted.
 */
export function playerFiles(
  bundle: Record<string, OutputFile>,
  notPlayers: (moduleId: string) => boolean,
): string[] {
  const chunks = new Map(
    Object.values(bundle)
      .filter((file) => file.type === 'chunk')
      .map((chunk) => [chunk.fileName, chunk]),
  );
  const entries = [...chunks.values()].filter((chunk) => chunk.isEntry);
  const reach = (next: (chunk: OutputFile) => string[], skip: (chunk: OutputFile) => boolean) => {
    const seen = new Set<string>();
    const visit = (fileName: string) => {
      const chunk = chunks.get(fileName);
      if (!chunk || seen.has(fileName) || skip(chunk)) return;
      seen.add(fileName);
      for (const imported of next(chunk)) visit(imported);
    };
    for (const entry of entries) visit(entry.fileName);
    return seen;
  };
  const started = reach(
    (chunk) => chunk.imports ?? [],
    () => false,
  );
  const players = reach(
    (chunk) => [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])],
    (chunk) => Boolean(chunk.facadeModuleId && notPlayers(chunk.facadeModuleId)),
  );
  return [...players]
    .filter((fileName) => !started.has(fileName))
    .sort()
    .map((fileName) => `/${fileName}`);
}

/** Writes `playerFiles` of the build to PLAYER_FILES_PATH. */
export function playerFilesList(notPlayers: (moduleId: string) => boolean): Plugin {
  return {
    name: 'pluckers:player-files',
    apply: 'build',
    generateBundle(_options, bundle) {
      this.emitFile({
        type: 'asset',
        fileName: PLAYER_FILES_PATH.slice(1),
        source: JSON.stringify(playerFiles(bundle as Record<string, OutputFile>, notPlayers)),
      });
    },
  };
}
