import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webBuildState } from './web-build-state.ts';

let root: string;

async function write(relative: string, secondsAgo: number): Promise<void> {
  const file = path.join(root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, '');
  const when = new Date(Date.now() - secondsAgo * 1000);
  await utimes(file, when, when);
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'pluckers-build-state-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('webBuildState', () => {
  it('is missing without a build stamp', async () => {
    await write('src/web/main.tsx', 100);
    expect(webBuildState(root)).toBe('missing');
  });

  it('is fresh when the stamp is newer than every input, tests aside', async () => {
    await write('src/web/main.tsx', 100);
    await write('src/shared/money.ts', 100);
    await write('vite.config.ts', 100);
    await write('dist/web/build-stamp.json', 50);
    await write('src/web/lib/http.test.ts', 10);
    // Directories' own times count too (a deleted file changes its folder), so age them as well.
    for (const dir of ['src/web/lib', 'src/web', 'src/shared', 'src']) {
      const when = new Date(Date.now() - 100_000);
      await utimes(path.join(root, dir), when, when);
    }
    expect(webBuildState(root)).toBe('fresh');
  });

  it.each([
    'src/web/app/App.tsx',
    'src/shared/constants.ts',
    'vite.config.ts',
    'package-lock.json',
  ])('is stale when %s changed after the build', async (input) => {
    await write('dist/web/build-stamp.json', 50);
    await write(input, 10);
    expect(webBuildState(root)).toBe('stale');
  });
});
