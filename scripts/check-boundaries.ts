/**
 * Import boundaries (bulletproof-react style), checked in `npm run lint`:
 * - src/shared imports neither the server nor the web app;
 * - the server never imports the web app and the web app never imports the server;
 * - on the web side: shared code (components, lib) → features → app, and no feature imports
 *   another feature;
 * - on the server, every unit depends only on units before it in SERVER_ORDER: infrastructure,
 *   the plugins modules use, the feature modules in their declared order, then what wires them
 *   together. So no two modules import each other, and db/ imports no module.
 *   (Tests and test helpers may import anything.)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve('src');

/** Feature modules (src/server/modules/<name>), each may use only those before it. */
const MODULE_ORDER = [
  'settings',
  'wallet',
  'fairness',
  'users',
  'audit',
  'catalogue',
  'support',
  'health',
  'auth',
  'notifications',
  'responsible-play',
  'profile',
  'leaderboard',
  'kyc',
  'game-lifecycle',
  'draws',
  'games',
  'plans',
  'payments',
  'withdrawals',
  'admin',
];

/** Server units in dependency order; `plugins` are the ones modules may use (auth, docs, …). */
const SERVER_ORDER = [
  'errors.ts',
  'lib',
  'config.ts',
  'db',
  'jobs',
  'providers',
  'plugins',
  ...MODULE_ORDER.map((name) => `modules/${name}`),
  'seed',
  // Plugins that wire modules into the app (the database with its seed, the worker, metrics,
  // the operator bootstrap): they use modules, so they come after them.
  'wiring',
  'api.ts',
  'app.ts',
  'main.ts',
];
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
  /** The server unit of SERVER_ORDER; undefined for tests and test helpers. */
  serverUnit?: string;
}

const isTestFile = (parts: string[]) =>
  parts.includes('test') || /(\.test\.ts|test-fixtures\.ts)$/.test(parts.at(-1) ?? '');

function serverUnitOf(parts: string[]): string | undefined {
  if (isTestFile(parts)) return undefined;
  const [first, second] = parts;
  if (first === 'modules') return `modules/${second}`;
  return first;
}

function placeOf(file: string): Place {
  const [area, layer, feature] = path.relative(ROOT, file).split(path.sep);
  if (area === 'server')
    return { area, serverUnit: serverUnitOf(path.relative(ROOT, file).split(path.sep).slice(1)) };
  if (area === 'shared' || area === 'test') return { area };
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
  if (from.area === 'server' && to.area === 'server') return serverOrderViolation(from, to);
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

function serverOrderViolation(from: Place, to: Place): string | null {
  if (!from.serverUnit || !to.serverUnit || from.serverUnit === to.serverUnit) return null;
  const rank = (unit: string) => SERVER_ORDER.indexOf(unit);
  for (const unit of [from.serverUnit, to.serverUnit])
    if (rank(unit) < 0)
      return `${unit} is not in SERVER_ORDER (scripts/check-boundaries.ts): place it`;
  if (rank(to.serverUnit) < rank(from.serverUnit)) return null;
  return `${from.serverUnit} must not import ${to.serverUnit}: server units depend only on those before them in SERVER_ORDER`;
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
