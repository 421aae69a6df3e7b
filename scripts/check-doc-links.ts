/**
 * Code comments cite the documentation by section (`docs/product.md#states`, `README.md#…`);
 * checked in `npm run lint` so a renamed heading cannot leave citations pointing nowhere. The
 * code also cites nothing outside the repository: a tracker's issue numbers mean nothing to the
 * next reader, so no code file (the .md documents aside) may name one, in a comment or glued
 * into a name such as a screenshot's file name (say why in the code's own terms, or cite docs/).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const CITATION = /\b((?:docs\/[a-z-]+|README)\.md)#([a-z0-9-]+)/g;
const SCANNED = ['src', 'scripts', 'e2e', 'bench', 'docs'];
/** The code roots: every file under them but the .md documents is code. */
const CODE_ROOTS = new Set(['src', 'scripts', 'e2e', 'bench']);
/**
 * A tracker's issue number as prose writes it (with or without "#") or glued into a file name;
 * "issued", "tissue" and "issues a code" are ordinary words.
 */
const TRACKER_REFERENCE = /\bissues? ?#?\d+/i;

function* files(directory: string): Generator<string> {
  for (const entry of readdirSync(directory)) {
    const full = path.join(directory, entry);
    if (entry === 'node_modules' || entry === 'results') continue;
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.(ts|tsx|md|sql|css|js|mjs|html)$/.test(entry)) yield full;
  }
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsIn(file: string): Set<string> {
  const headings = readFileSync(file, 'utf8').match(/^#{1,6} .+$/gm) ?? [];
  return new Set(headings.map((line) => anchorOf(line.replace(/^#+ /, ''))));
}

const anchors = new Map<string, Set<string>>();
const problems: string[] = [];
for (const root of SCANNED) {
  for (const file of files(root)) {
    const text = readFileSync(file, 'utf8');
    if (CODE_ROOTS.has(root) && !file.endsWith('.md')) {
      text.split('\n').forEach((row, line) => {
        if (TRACKER_REFERENCE.test(row)) {
          problems.push(`${file}:${line + 1}: names a tracker's issue number`);
        }
      });
    }
    for (const match of text.matchAll(CITATION)) {
      const [citation, document, anchor] = match as unknown as [string, string, string];
      // Inside docs/, citations are relative to the repository root like everywhere else.
      const target = path.resolve(document);
      let known = anchors.get(target);
      if (!known) {
        try {
          known = anchorsIn(target);
        } catch {
          problems.push(`${file}: cites ${citation}, but ${document} does not exist`);
          continue;
        }
        anchors.set(target, known);
      }
      if (!known.has(anchor)) problems.push(`${file}: cites ${citation}: no such heading`);
    }
  }
}

if (problems.length > 0) {
  console.error(`Citations that lead nowhere:\n${problems.join('\n')}`);
  process.exit(1);
}
console.info('Documentation citations: ok');
