/**
 * Checks a published draw proof step by step, in words a player understands: the Fair draw
 * panel, the operator console and `npm run verify-draw` all run this same code.
 */
import { type BeaconChain, firstRoundAfter, verifyBeaconRound } from './beacon.ts';
import {
  commitmentOf,
  drawWinners,
  drawWinnersV2,
  type FairnessCrypto,
  winnersDigestOf,
} from './fairness.ts';
import { type FairnessLogRecord, fairnessRecordHash } from './fairness-log.ts';
import { merkleRootOf } from './merkle.ts';

export interface DrawProof {
  /** 1: seed-only draw (older games); 2: sealed entries and a public beacon round. */
  version?: number;
  commitment: string;
  seed: string | null;
  entriesDigest: string | null;
  entries: Array<{ entryId: number; username: string; playerId?: string; answerHash?: string }>;
  winners: number[];
  closedAt?: string | null;
  merkleRoot?: string | null;
  beacon?: {
    chain: BeaconChain;
    round: number;
    signature: string | null;
    randomness: string | null;
  } | null;
  /** This game's records in the public fairness log. */
  log?: FairnessLogRecord[];
}

export type CheckId = 'commitment' | 'seal' | 'beacon' | 'winners' | 'log';
export interface DrawCheck {
  id: CheckId;
  status: 'pass' | 'fail' | 'skip';
  text: string;
}

export type ProofVerdict = { ok: true } | { ok: false; reason: string };

const short = (hex: string) => `${hex.slice(0, 12)}…`;

export async function checkDraw(crypto: FairnessCrypto, proof: DrawProof): Promise<DrawCheck[]> {
  if (!proof.seed) return [];
  const seed = proof.seed;
  const checks: DrawCheck[] = [];
  const commitmentOk = (await commitmentOf(crypto, seed)) === proof.commitment;
  checks.push(
    commitmentOk
      ? {
          id: 'commitment',
          status: 'pass',
          text: `The seed revealed after the draw hashes to the commitment ${short(proof.commitment)} published before play.`,
        }
      : {
          id: 'commitment',
          status: 'fail',
          text: 'The revealed seed does not match the commitment published before play',
        },
  );
  if ((proof.version ?? 1) < 2) {
    checks.push(await checkSeedOnlyWinners(crypto, seed, proof));
    checks.push({
      id: 'seal',
      status: 'skip',
      text: 'This game was drawn before entries were sealed at close and a public beacon was used: only the seed and the winners can be checked.',
    });
    return checks;
  }
  checks.push(checkSeal(proof));
  checks.push(checkBeacon(proof));
  checks.push(await checkWinners(crypto, seed, proof));
  checks.push(await checkLog(crypto, seed, proof));
  return checks;
}

function checkSeal(proof: DrawProof): DrawCheck {
  const complete = proof.entries.every((entry) => entry.playerId && entry.answerHash);
  if (!proof.merkleRoot || !complete)
    return { id: 'seal', status: 'fail', text: 'The proof does not include the sealed entry list' };
  const root = merkleRootOf(
    proof.entries.map((entry) => ({
      entryId: entry.entryId,
      playerId: entry.playerId as string,
      answerHash: entry.answerHash as string,
    })),
  );
  return root === proof.merkleRoot
    ? {
        id: 'seal',
        status: 'pass',
        text: `The ${proof.entries.length} published entries are exactly the ones sealed when the game closed (Merkle root ${short(root)}).`,
      }
    : {
        id: 'seal',
        status: 'fail',
        text: 'The published entries differ from the list sealed when the game closed',
      };
}

function checkBeacon(proof: DrawProof): DrawCheck {
  const beacon = proof.beacon;
  if (!beacon?.signature || !beacon.randomness || !proof.closedAt)
    return { id: 'beacon', status: 'fail', text: 'The proof does not include the beacon round' };
  const expected = firstRoundAfter(beacon.chain, new Date(proof.closedAt));
  if (beacon.round !== expected)
    return {
      id: 'beacon',
      status: 'fail',
      text: `The draw used beacon round ${beacon.round}, but the first round after the game closed is ${expected}`,
    };
  const verdict = verifyBeaconRound(beacon.chain, {
    round: beacon.round,
    signature: beacon.signature,
    randomness: beacon.randomness,
  });
  return verdict.ok
    ? {
        id: 'beacon',
        status: 'pass',
        text: `Beacon round ${beacon.round}, the first published after the game closed, carries a valid signature of the public randomness beacon: nobody knew it when entries were sealed.`,
      }
    : { id: 'beacon', status: 'fail', text: verdict.reason };
}

async function checkWinners(
  crypto: FairnessCrypto,
  seed: string,
  proof: DrawProof,
): Promise<DrawCheck> {
  if (!proof.merkleRoot || !proof.beacon?.randomness)
    return {
      id: 'winners',
      status: 'fail',
      text: 'The winners cannot be recomputed without the seal and the beacon',
    };
  const winners = await drawWinnersV2(
    crypto,
    seed,
    proof.entries.map((entry) => entry.entryId),
    proof.merkleRoot,
    proof.beacon.randomness,
  );
  return sameSet(winners, proof.winners)
    ? {
        id: 'winners',
        status: 'pass',
        text: `Recomputing the draw from the seed, the sealed entries and the beacon picks exactly ${publishedWinners(winners.length)}.`,
      }
    : {
        id: 'winners',
        status: 'fail',
        text: 'The published winners differ from the recomputed ones',
      };
}

/** "the published winner" for one, "the 3 published winners" for more. */
const publishedWinners = (count: number) =>
  count === 1 ? 'the published winner' : `the ${count} published winners`;

async function checkSeedOnlyWinners(
  crypto: FairnessCrypto,
  seed: string,
  proof: DrawProof,
): Promise<DrawCheck> {
  const result = await drawWinners(
    crypto,
    seed,
    proof.entries.map((entry) => entry.entryId),
  );
  if (result.entriesDigest !== proof.entriesDigest)
    return {
      id: 'winners',
      status: 'fail',
      text: 'The entry list does not match the one the draw used',
    };
  return sameSet(result.winners, proof.winners)
    ? {
        id: 'winners',
        status: 'pass',
        text: `Recomputing the draw from the seed and the entry list picks exactly ${publishedWinners(result.winners.length)}.`,
      }
    : {
        id: 'winners',
        status: 'fail',
        text: 'The published winners differ from the recomputed ones',
      };
}

/** What each of the game's log records must say, from the proof itself. */
async function expectedLogFields(
  crypto: FairnessCrypto,
  seed: string,
  proof: DrawProof,
): Promise<Record<string, Record<string, unknown>>> {
  return {
    commitment: { commitment: proof.commitment },
    seal: { merkleRoot: proof.merkleRoot, closedAt: proof.closedAt },
    beacon: { round: proof.beacon?.round, randomness: proof.beacon?.randomness },
    result: { seed, winnersDigest: await winnersDigestOf(crypto, proof.winners) },
  };
}

async function checkLog(
  crypto: FairnessCrypto,
  seed: string,
  proof: DrawProof,
): Promise<DrawCheck> {
  const records = proof.log ?? [];
  const expected = await expectedLogFields(crypto, seed, proof);
  for (const kind of Object.keys(expected)) {
    const record = records.find((candidate) => candidate.kind === kind);
    if (!record)
      return {
        id: 'log',
        status: 'fail',
        text: `The ${kind} of this game is not in the public fairness log yet`,
      };
    if (fairnessRecordHash(record.prevHash, record.body) !== record.hash)
      return {
        id: 'log',
        status: 'fail',
        text: `Log record ${record.position} was changed after it was written`,
      };
    const body = JSON.parse(record.body) as Record<string, unknown>;
    const differs = Object.entries(expected[kind] ?? {}).find(
      ([key, value]) => body[key] !== value,
    );
    if (differs)
      return {
        id: 'log',
        status: 'fail',
        text: `Log record ${record.position} (${kind}) says a different ${differs[0]} than this proof`,
      };
  }
  const positions = records.map((record) => record.position).join(', ');
  return {
    id: 'log',
    status: 'pass',
    text: `The commitment, seal, beacon round and result are in the public fairness log (records ${positions}), each intact and agreeing with this proof.`,
  };
}

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  const key = (values: readonly number[]) => [...values].sort((x, y) => x - y).join(',');
  return key(a) === key(b);
}

/** One verdict for the whole proof: the first failed check, if any. */
export async function verifyDrawProof(
  crypto: FairnessCrypto,
  proof: DrawProof,
): Promise<ProofVerdict> {
  if (!proof.seed || !proof.entriesDigest)
    return { ok: false, reason: 'The draw has not happened yet' };
  const failed = (await checkDraw(crypto, proof)).find((check) => check.status === 'fail');
  return failed ? { ok: false, reason: failed.text } : { ok: true };
}
