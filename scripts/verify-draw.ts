/**
 * `npm run verify-draw -- <gameId> [--url http://localhost:3000] [--commitment <hex>]`
 *
 * Checks a game's draw without trusting the server: fetches the public proof from
 * GET /api/v1/game/<gameId>/draw, then, with the same code the browser's Fairness view runs
 * (src/shared/fairness.ts on Web Crypto), checks that the revealed seed hashes to the commitment
 * published before play and recomputes the winners from the seed and the entry list.
 * `--commitment` compares against the commitment you noted yourself before the draw.
 * Prints a verdict; exits 0 when the draw verifies and 1 otherwise.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDraw } from '../src/shared/draw-check.ts';
import { webFairnessCrypto } from '../src/shared/fairness.ts';
import { type DrawProofResponse, drawProofSchema } from '../src/shared/schemas/games.ts';

export const USAGE =
  'Usage: npm run verify-draw -- <gameId> [--url http://localhost:3000] [--commitment <hex>]';
const DEFAULT_URL = 'http://localhost:3000';

export interface VerifyOptions {
  gameId: string;
  url: string;
  /** The commitment the player noted before the draw, if any. */
  commitment?: string;
}

export interface VerifyReport {
  ok: boolean;
  lines: string[];
}

export function parseArgs(argv: readonly string[]): VerifyOptions | { error: string } {
  let gameId: string | undefined;
  let url = DEFAULT_URL;
  let commitment: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith('--') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    if (flag === '--url' || flag === '--commitment') {
      const value = inline ?? argv[++i];
      if (!value) return { error: `${flag} needs a value` };
      if (flag === '--url') url = value;
      else commitment = value.toLowerCase();
    } else if (flag === '--help' || flag === '-h') {
      return { error: '' };
    } else if (arg.startsWith('-')) {
      return { error: `Unknown option ${arg}` };
    } else if (gameId) {
      return { error: `Unexpected argument ${arg}` };
    } else {
      gameId = arg;
    }
  }
  if (!gameId) return { error: 'Give the id of the game to check' };
  try {
    new URL(url);
  } catch {
    return { error: `--url must be a URL such as ${DEFAULT_URL}` };
  }
  return { gameId, url: url.replace(/\/+$/, ''), ...(commitment ? { commitment } : {}) };
}

async function fetchProof(
  options: VerifyOptions,
  fetchImpl: typeof fetch,
): Promise<{ proof: DrawProofResponse } | { problem: string }> {
  const address = `${options.url}/api/v1/game/${encodeURIComponent(options.gameId)}/draw`;
  let response: Response;
  try {
    response = await fetchImpl(address, { headers: { accept: 'application/json' } });
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as Error | undefined) ?? error) : error;
    return {
      problem: `Could not reach ${options.url}: ${cause instanceof Error ? cause.message : String(cause)}`,
    };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { problem: `${address} answered ${response.status} without JSON` };
  }
  if (!response.ok) {
    const message = (body as { message?: unknown } | null)?.message;
    return {
      problem: `The server answered ${response.status}: ${typeof message === 'string' ? message : 'no message'}`,
    };
  }
  const parsed = drawProofSchema.safeParse((body as { data?: unknown } | null)?.data);
  if (!parsed.success) return { problem: `${address} did not return a draw proof` };
  return { proof: parsed.data };
}

/** Fetches and checks one proof; never throws for a bad server or a bad proof. */
export async function verifyDraw(
  options: VerifyOptions,
  fetchImpl: typeof fetch = fetch,
): Promise<VerifyReport> {
  const lines = [`Checking the draw of game ${options.gameId} on ${options.url}`];
  const fail = (reason: string): VerifyReport => ({
    ok: false,
    lines: [...lines, '', `NOT VERIFIED: ${reason}`],
  });

  const fetched = await fetchProof(options, fetchImpl);
  if ('problem' in fetched) return fail(fetched.problem);
  const { proof } = fetched;
  lines.push(`Status:       ${proof.status}`);
  lines.push(
    `Commitment:   ${proof.commitment}  (sha256 of the secret seed, published before play)`,
  );
  if (options.commitment && options.commitment !== proof.commitment) {
    return fail(
      `The server now shows commitment ${proof.commitment}, not the ${options.commitment} you noted`,
    );
  }
  if (!proof.seed || !proof.entriesDigest) {
    return fail(
      `The draw has not happened yet (status ${proof.status}); the seed is revealed once it has`,
    );
  }

  lines.push(`Seed:         ${proof.seed}`);
  lines.push(`Entries:      ${proof.entries.length} (digest ${proof.entriesDigest})`);
  if (proof.merkleRoot)
    lines.push(`Sealed root:  ${proof.merkleRoot}  (at close ${proof.closedAt})`);
  if (proof.beacon)
    lines.push(
      `Beacon:       round ${proof.beacon.round} of chain ${proof.beacon.chain.hash.slice(0, 16)}…, randomness ${proof.beacon.randomness ?? '(none)'}`,
    );
  const names = new Map(proof.entries.map((entry) => [entry.entryId, entry.username]));
  const list = (ids: number[]) =>
    ids.length === 0
      ? ['  (none)']
      : [...ids]
          .sort((a, b) => a - b)
          .map((id) => `  entry ${id}  ${names.get(id) ?? '(not in the entry list)'}`);
  lines.push(`Published winners (${proof.winners.length}):`, ...list(proof.winners));
  lines.push('', 'Checks:');
  const checks = await checkDraw(webFairnessCrypto, proof);
  for (const check of checks)
    lines.push(`  [${CHECK_MARK[check.status]}] ${CHECK_NAME[check.id]}: ${check.text}`);
  const failed = checks.find((check) => check.status === 'fail');
  if (failed) return fail(failed.text);
  return {
    ok: true,
    lines: [
      ...lines,
      '',
      proof.version >= 2
        ? 'VERIFIED: the seed matches the commitment, the entries match the seal, the beacon round is genuine, the winners are exactly the published ones and every step is in the public log.'
        : 'VERIFIED: the seed matches the commitment and picks exactly the published winners.',
    ],
  };
}

const CHECK_MARK = { pass: 'ok', fail: 'FAILED', skip: '--' } as const;
const CHECK_NAME = {
  commitment: 'Seed vs commitment',
  seal: 'Entries vs seal',
  beacon: 'Beacon round',
  winners: 'Winners',
  log: 'Fairness log',
} as const;

async function main(argv: readonly string[]): Promise<number> {
  const options = parseArgs(argv);
  if ('error' in options) {
    if (options.error) console.error(options.error);
    console.error(USAGE);
    return 1;
  }
  const report = await verifyDraw(options);
  console.info(report.lines.join('\n'));
  return report.ok ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  process.exitCode = await main(process.argv.slice(2));
}
