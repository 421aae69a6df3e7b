import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { games } from '../src/server/db/schema.ts';
import { sealEntries } from '../src/server/modules/draws/seal.ts';
import { drawGame } from '../src/server/modules/draws/service.ts';
import { playGame } from '../src/server/modules/games/service.ts';
import { createBeaconClient } from '../src/server/providers/beacon.ts';
import { TEST_JWT_SECRET, TEST_KYC_HASH_KEY, testEnv } from '../src/server/test/app.ts';
import { actorFor, createGame, createPlayer, type GameRow } from '../src/server/test/factories.ts';
import { freePort, newDataDir } from '../src/server/test/instances.ts';
import { loadPgliteBinaries } from '../src/server/test/pglite-binaries.ts';
import { nodeArgsFor } from './build-server.ts';
import { parseArgs, verifyDraw } from './verify-draw.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** `node <nodeArgs>`: the run's built server, or a script through tsx as npm runs it. */
function run(
  nodeArgs: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, nodeArgs, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

/**
 * A real server process (the run's build of `src/server/main.ts`, as `npm start` runs it) on a
 * free port, over a database prepared beforehand with one drawn game and one still open.
 */
describe('npm run verify-draw against a running server', () => {
  let server: ReturnType<typeof run> | undefined;
  let url = '';
  let dataDir = '';
  let drawn: GameRow;
  let open: GameRow;

  beforeAll(async () => {
    const databaseUrl = inject('testDatabaseUrl');
    dataDir = await newDataDir(databaseUrl);
    const handle = databaseUrl
      ? await openDatabase({ databaseUrl, dataDir: '', poolSize: 2 })
      : await openDatabase({ databaseUrl: undefined, dataDir, pglite: await loadPgliteBinaries() });
    try {
      drawn = await createGame(handle.db, { entryFee: 5_000n, maximumPlayers: 100 });
      open = await createGame(handle.db, { maximumPlayers: 100 });
      for (let i = 0; i < 11; i += 1) {
        const player = await createPlayer(handle.db, { kobo: 20_000n });
        await playGame(
          handle.db,
          await actorFor(handle.db, player),
          { gameID: drawn.id, submittedAnswer: 'mine' },
          new Date(),
        );
      }
      await handle.db
        .update(games)
        .set({ status: 'CLOSED', closedAt: new Date() })
        .where(eq(games.id, drawn.id));
      await sealEntries(handle.db, drawn.id);
      const config = loadConfig(testEnv(inject('beaconEnv')));
      const beacon = createBeaconClient(config.beacon);
      expect(await drawGame(handle.db, beacon, drawn.id, new Date())).toBe('completed');
    } finally {
      await handle.close();
    }

    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = run(nodeArgsFor(inject('serverMain')), {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      KYC_HASH_KEY: TEST_KYC_HASH_KEY,
      SEED_DEMO: 'false',
      JOB_POLL_MS: '0',
      LOG_LEVEL: 'warn',
      // Test files and this server share one PostgreSQL and its 100 connections.
      DATABASE_POOL_SIZE: '4',
      // Rate limits are shared through the database, and every test file's requests come from
      // 127.0.0.1: this server must not count theirs against these checks.
      RATE_LIMIT_MAX: '1000000',
      WEB_DIST: path.join(dataDir, 'no-web-build'),
      ...inject('beaconEnv'),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    const deadline = Date.now() + 50_000;
    for (;;) {
      if (server.child.exitCode !== null) {
        throw new Error(`the server exited: ${(await server.done).stderr}`);
      }
      const healthy = await fetch(`${url}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) break;
      if (Date.now() > deadline) {
        server.child.kill('SIGTERM');
        const output = await server.done;
        throw new Error(`the server did not start in time:\n${output.stdout}\n${output.stderr}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.done;
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('verifies a completed draw and exits 0', async () => {
    const { code, stdout, stderr } = await run([
      '--import',
      'tsx',
      'scripts/verify-draw.ts',
      drawn.id,
      '--url',
      url,
    ]).done;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`Checking the draw of game ${drawn.id} on ${url}`);
    expect(stdout).toContain('Status:       COMPLETED');
    expect(stdout).toContain(`Commitment:   ${drawn.commitment}`);
    expect(stdout).toContain(`Seed:         ${drawn.seed}`);
    expect(stdout).toContain('Entries:      11');
    expect(stdout).toContain('Published winners (2):');
    expect(stdout).toMatch(/entry \d+ {2}plucker_p_/);
    expect(stdout).toContain('[ok] Seed vs commitment: The seed revealed after the draw hashes');
    expect(stdout).toContain('[ok] Entries vs seal: The 11 published entries are exactly');
    expect(stdout).toMatch(/\[ok\] Beacon round: Beacon round \d+, the first published after/);
    expect(stdout).toContain(
      '[ok] Winners: Recomputing the draw from the seed, the sealed entries',
    );
    expect(stdout).toMatch(/\[ok\] Fairness log: .* \(records \d+, \d+, \d+, \d+\)/);
    expect(stdout.trimEnd()).toMatch(
      /VERIFIED: the seed matches the commitment, the entries match the seal, the beacon round is genuine, the winners are exactly the published ones and every step is in the public log\.$/,
    );
  });

  it('exits 1 for a game that has not been drawn yet', async () => {
    const { code, stdout } = await run([
      '--import',
      'tsx',
      'scripts/verify-draw.ts',
      open.id,
      `--url=${url}/`,
    ]).done;
    expect(code).toBe(1);
    expect(stdout).toContain(
      'NOT VERIFIED: The draw has not happened yet (status ONGOING); the seed is revealed once it has',
    );
  });

  it('reports an unknown game, a commitment other than the one noted, and a dead server', async () => {
    const unknown = await verifyDraw({ gameId: '00000000-0000-4000-8000-000000000000', url });
    expect(unknown.ok).toBe(false);
    expect(unknown.lines.at(-1)).toBe('NOT VERIFIED: The server answered 404: Game not found');

    const noted = await verifyDraw({ gameId: drawn.id, url, commitment: drawn.commitment });
    expect(noted.ok).toBe(true);
    const other = 'ab'.repeat(32);
    const changed = await verifyDraw({ gameId: drawn.id, url, commitment: other });
    expect(changed.lines.at(-1)).toBe(
      `NOT VERIFIED: The server now shows commitment ${drawn.commitment}, not the ${other} you noted`,
    );

    const dead = await verifyDraw({
      gameId: drawn.id,
      url: `http://127.0.0.1:${await freePort()}`,
    });
    expect(dead.ok).toBe(false);
    expect(dead.lines.at(-1)).toMatch(/^NOT VERIFIED: Could not reach http:\/\/127\.0\.0\.1:\d+: /);
  });

  it('catches a proof tampered with on the way', async () => {
    type Proof = {
      seed: string;
      entries: Array<{ entryId: number; username: string }>;
      winners: number[];
    };
    const tampered = (change: (proof: Proof) => void): typeof fetch =>
      (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
        const real = await fetch(input, init);
        const body = (await real.json()) as { data: Proof };
        change(body.data);
        return new Response(JSON.stringify(body), { status: real.status });
      }) as typeof fetch;
    const verdict = async (change: (proof: Proof) => void) =>
      (await verifyDraw({ gameId: drawn.id, url }, tampered(change))).lines.at(-1);

    expect(
      await verdict((proof) => {
        const loser = proof.entries.find((entry) => !proof.winners.includes(entry.entryId));
        proof.winners[0] = loser?.entryId ?? 0;
      }),
    ).toBe('NOT VERIFIED: The published winners differ from the recomputed ones');
    expect(
      await verdict((proof) => {
        proof.seed = `${proof.seed.slice(0, -1)}${proof.seed.endsWith('0') ? '1' : '0'}`;
      }),
    ).toBe('NOT VERIFIED: The revealed seed does not match the commitment published before play');
    expect(
      await verdict((proof) => {
        proof.entries.pop();
      }),
    ).toBe('NOT VERIFIED: The published entries differ from the list sealed when the game closed');
    expect(
      await verdict((proof) => {
        const beacon = (proof as unknown as { beacon: { randomness: string } }).beacon;
        beacon.randomness = 'ab'.repeat(32);
      }),
    ).toBe('NOT VERIFIED: The beacon randomness is not the hash of its signature');
    expect(
      await verdict((proof) => {
        const beacon = (proof as unknown as { beacon: { round: number } }).beacon;
        beacon.round += 1;
      }),
    ).toMatch(
      /^NOT VERIFIED: The draw used beacon round \d+, but the first round after the game closed is \d+$/,
    );
    expect(
      await verdict((proof) => {
        const log = (proof as unknown as { log: Array<{ body: string }> }).log;
        const result = log.at(-1) as { body: string };
        result.body = result.body.replace('"winners":2', '"winners":3');
      }),
    ).toMatch(/^NOT VERIFIED: Log record \d+ was changed after it was written$/);
    expect(
      await verdict((proof) => {
        (proof as { winners: unknown }).winners = 'nobody';
      }),
    ).toMatch(/^NOT VERIFIED: .* did not return a draw proof$/);
  });
});

describe('verify-draw arguments', () => {
  it('reads the game id, --url and --commitment, and refuses anything else', () => {
    expect(parseArgs(['abc'])).toEqual({ gameId: 'abc', url: 'http://localhost:3000' });
    expect(parseArgs(['abc', '--url', 'http://example.test:8080/'])).toEqual({
      gameId: 'abc',
      url: 'http://example.test:8080',
    });
    expect(parseArgs(['--commitment=ABCD', 'abc', '--url=https://pluckers.ng'])).toEqual({
      gameId: 'abc',
      url: 'https://pluckers.ng',
      commitment: 'abcd',
    });
    expect(parseArgs([])).toEqual({ error: 'Give the id of the game to check' });
    expect(parseArgs(['abc', 'def'])).toEqual({ error: 'Unexpected argument def' });
    expect(parseArgs(['abc', '--url'])).toEqual({ error: '--url needs a value' });
    expect(parseArgs(['abc', '--url', 'localhost'])).toEqual({
      error: '--url must be a URL such as http://localhost:3000',
    });
    expect(parseArgs(['abc', '--verbose'])).toEqual({ error: 'Unknown option --verbose' });
  });
});
