/**
 * Import boundaries (bulletproof-react style), checked in `npm run lint`:
 * - src/shared imports neither the server nor the web app;
 * - the server never imports the web app and the web app never imports the server;
 * - on the web side: shared code (components, lib) → features → app, and no feature imports
 *   another feature.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve('src');
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function* sourceFiles(directory: string): Generator<string> {
  for (const entry of readdirSync(directory)) {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx)$/.test(entry)) yield full;
  }
}

function resolveImport(file: string, specifier: string): string | null {
  if (specifier.startsWith('@shared/')) return path.join(ROOT, 'shared', specifier.slice(8));
  if (specifier.startsWith('@web/')) return path.join(ROOT, 'web', specifier.slice(5));
  if (specifier.startsWith('.')) return path.resolve(path.dirname(file), specifier);
  return null;
}

interface Place {
  area: 'shared' | 'server' | 'web' | 'test' | 'other';
  webLayer?: 'shared' | 'feature' | 'app';
  feature?: string;
}

function placeOf(file: string): Place {
  const [area, layer, feature] = path.relative(ROOT, file).split(path.sep);
  if (area === 'shared' || area === 'server' || area === 'test') return { area };
  if (area !== 'web') return { area: 'other' };
  if (layer === 'features') return { area, webLayer: 'feature', feature };
  // main.tsx mounts the app, so it sits in the app layer.
  if (layer === 'app' || layer === 'main.tsx') return { area, webLayer: 'app' };
  return { area, webLayer: 'shared' };
}

function violation(from: Place, to: Place): string | null {
  if (from.area === 'shared' && (to.area === 'server' || to.area === 'web'))
    return 'src/shared must not import the server or the web app';
  if (from.area === 'server' && to.area === 'web') return 'the server must not import the web app';
  if (from.area === 'web' && to.area === 'server') return 'the web app must not import the server';
  if (from.area !== 'web' || to.area !== 'web') return null;
  if (from.webLayer === 'shared' && to.webLayer !== 'shared')
    return 'shared web code (components, lib) must not import features or app';
  if (from.webLayer === 'feature' && to.webLayer === 'app')
    return 'a feature must not import from app/';
  if (from.webLayer === 'feature' && to.webLayer === 'feature' && from.feature !== to.feature) {
    return `feature "${from.feature}" must not import feature "${to.feature}"`;
  }
  return null;
}

const problems: string[] = [];
for (const file of sourceFiles(ROOT)) {
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2];
    if (!specifier) continue;
    const target = resolveImport(file, specifier);
    if (!target) continue;
    const reason = violation(placeOf(file), placeOf(target));
    if (reason)
      problems.push(`${path.relative(process.cwd(), file)}: imports ${specifier}: ${reason}`);
  }
}

if (problems.length > 0) {
  console.error(`Import boundary violations:\n${problems.join('\n')}`);
  process.exit(1);
}
console.info('Import boundaries: ok');
