import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from './config.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFile(`${root}/${file}`, 'utf8');

/** Variables compose.yaml leaves to the image or that production refuses. */
const NOT_PASSED = {
  HOST: 'the image listens on every interface (Dockerfile)',
  PORT: 'the image listens on 3000, which HAProxy reaches (Dockerfile, deploy/haproxy.cfg)',
  DATA_DIR: 'the image keeps it at /app/data, on a volume of each instance',
  WEB_DIST: 'the web app built into the image',
  PUSH_ALLOW_LOCAL_ENDPOINTS: 'the tests’ local push service; refused with NODE_ENV=production',
} as const;

describe('compose.yaml', () => {
  it('passes every variable the server reads to every instance, and requires the shared secrets', async () => {
    const compose = await read('compose.yaml');
    const passed = new Set(
      [...compose.matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1] ?? ''),
    );
    const missing = CONFIG_VARIABLES.filter((name) => !passed.has(name) && !(name in NOT_PASSED));
    expect(missing).toEqual([]);
    for (const name of Object.keys(NOT_PASSED)) expect(passed.has(name), name).toBe(false);
    // Without them each instance would make its own (config.ts refuses to start, too).
    for (const name of ['JWT_SECRET', 'KYC_HASH_KEY'])
      expect(compose).toMatch(new RegExp(`^ {4}${name}: \\$\\{${name}:\\?`, 'm'));
    for (const instance of ['app1', 'app2', 'app3'])
      expect(compose).toMatch(
        new RegExp(
          `^ {2}${instance}:\\n {4}<<: \\*app\\n {4}volumes: \\[${instance}-data:/app/data\\]`,
          'm',
        ),
      );
  });

  it('leaves to the image only what the image sets', async () => {
    const dockerfile = await read('Dockerfile');
    for (const name of ['HOST', 'PORT', 'DATA_DIR', 'WEB_DIST'])
      expect(dockerfile).toMatch(new RegExp(`\\b${name}=`));
  });
});
