import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { TEST_JWT_SECRET, TEST_KYC_HASH_KEY } from '../src/server/test/app.ts';
import { newDataDir } from '../src/server/test/instances.ts';
import { nodeArgsFor, serverBuildAt } from './build-server.ts';

const execFileAsync = promisify(execFile);

/** `node <the run's build of scripts/admin.ts> …args`, from a directory outside the repository. */
async function admin(args: string[], env: Record<string, string>) {
  const { admin: entry } = serverBuildAt(path.dirname(inject('serverMain')));
  return execFileAsync(process.execPath, [...nodeArgsFor(entry), ...args], {
    cwd: tmpdir(),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe("the operators' command line as built", () => {
  it('checks the ledger of a migrated database with plain Node, whatever the directory', async () => {
    const databaseUrl = inject('testDatabaseUrl');
    const dataDir = await newDataDir(databaseUrl);
    onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
    const { code, stdout, stderr } = await admin(['check-ledger'], {
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      KYC_HASH_KEY: TEST_KYC_HASH_KEY,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('The books balance.');
  });

  it('answers an unknown command with its usage and exit code 2', async () => {
    const { code, stdout, stderr } = await admin(['pay-everyone'], {});
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^Usage: npm run admin -- promote <email>/);
  });
});
