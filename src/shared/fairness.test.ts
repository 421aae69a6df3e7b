import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDraw, type DrawProof, verifyDrawProof } from './draw-check.ts';
import {
  commitmentOf,
  drawWinners,
  entriesDigestOf,
  type FairnessCrypto,
  webFairnessCrypto,
  winnerCount,
} from './fairness.ts';
import { bytesToHex, hexToBytes } from './hex.ts';

const crypto = webFairnessCrypto;

const seedArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(bytesToHex);
/** Entry ids as the database hands them out: distinct positive integers, in any order. */
const entriesArb = (minLength = 0, maxLength = 80) =>
  fc.uniqueArray(fc.integer({ min: 1, max: 10_000_000_000 }), { minLength, maxLength });

/** A deterministic 32-byte seed for the statistical tests: the same every run. */
const fixedSeed = (label: string, index: number) =>
  createHash('sha256').update(`pluckers fairness test ${label} ${index}`).digest('hex');

/**
 * The procedure of docs/product.md#fairness written out again, as plainly as possible and with Node's
 * synchronous hashes, so the shared implementation is checked against the documented
 * algorithm rather than against itself.
 */
function referenceDraw(seedHex: string, entryIds: readonly number[]): number[] {
  const ordered = [...entryIds].sort((a, b) => a - b);
  const digest = createHash('sha256').update(ordered.join(',')).digest();
  const key = Buffer.from(seedHex, 'hex');
  const buffered: number[] = [];
  let counter = 0n;
  const nextUint32 = (): number => {
    if (buffered.length === 0) {
      const message = Buffer.alloc(digest.length + 8);
      digest.copy(message, 0);
      message.writeBigUInt64BE(counter, digest.length);
      counter += 1n;
      const block = createHmac('sha256', key).update(message).digest();
      for (let offset = 0; offset < block.length; offset += 4)
        buffered.push(block.readUInt32BE(offset));
    }
    return buffered.shift() as number;
  };
  const uniformBelow = (bound: number): number => {
    const limit = 2 ** 32 - (2 ** 32 % bound);
    for (;;) {
      const value = nextUint32();
      if (value < limit) return value % bound;
    }
  };
  const pool = [...ordered];
  const count = Math.floor(ordered.length / 5);
  for (let i = 0; i < count; i += 1) {
    const j = i + uniformBelow(pool.length - i);
    [pool[i], pool[j]] = [pool[j] as number, pool[i] as number];
  }
  return pool.slice(0, count);
}

async function proofFor(seed: string, entryIds: readonly number[]): Promise<DrawProof> {
  const { winners, entriesDigest } = await drawWinners(crypto, seed, entryIds);
  return {
    commitment: await commitmentOf(crypto, seed),
    seed,
    entriesDigest,
    entries: [...entryIds]
      .sort((a, b) => a - b)
      .map((entryId) => ({ entryId, username: `plucker_${entryId}` })),
    winners,
  };
}

describe('hex helpers', () => {
  it('round-trips bytes and refuses what is not hex', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(hexToBytes(bytesToHex(bytes))).toEqual(bytes);
      }),
    );
    expect(() => hexToBytes('abc')).toThrow('not a hex string');
    expect(() => hexToBytes('zz')).toThrow('not a hex string');
    expect(hexToBytes('FF00')).toEqual(new Uint8Array([255, 0]));
  });
});

describe('drawWinners', () => {
  it('picks floor(n / 5) distinct winners from the entries', async () => {
    await fc.assert(
      fc.asyncProperty(seedArb, entriesArb(), async (seed, entryIds) => {
        const { winners } = await drawWinners(crypto, seed, entryIds);
        expect(winners).toHaveLength(Math.floor(entryIds.length / 5));
        expect(winners).toHaveLength(winnerCount(entryIds.length));
        expect(new Set(winners).size).toBe(winners.length);
        const entrySet = new Set(entryIds);
        for (const winner of winners) expect(entrySet.has(winner)).toBe(true);
      }),
    );
  });

  it('is deterministic for a seed and does not depend on the order entries arrive in', async () => {
    await fc.assert(
      fc.asyncProperty(seedArb, entriesArb(0, 40), async (seed, entryIds) => {
        const first = await drawWinners(crypto, seed, entryIds);
        const again = await drawWinners(crypto, seed, entryIds);
        const reversed = await drawWinners(crypto, seed, [...entryIds].reverse());
        expect(again).toEqual(first);
        expect(reversed).toEqual(first);
        expect(first.entriesDigest).toBe(await entriesDigestOf(crypto, entryIds));
      }),
    );
  });

  it('follows the documented procedure exactly (independent re-implementation)', async () => {
    await fc.assert(
      fc.asyncProperty(seedArb, entriesArb(0, 120), async (seed, entryIds) => {
        const { winners } = await drawWinners(crypto, seed, entryIds);
        expect(winners).toEqual(referenceDraw(seed, entryIds));
      }),
    );
  });

  it('redraws numbers at or above the largest multiple of the bound (no modulo bias)', async () => {
    // A stream we control: the first number of each block is the largest 32-bit value, which
    // must be rejected for any bound that does not divide 2^32; the next ones are used.
    const messages: string[] = [];
    const blocks = [
      [0xffff_ffff, 13, 0xffff_fffc, 0xffff_fffd, 0xffff_fffe, 0xffff_ffff, 12, 0xffff_ffff],
      [0xffff_fff7, 7, 0, 0, 0, 0, 0, 0],
    ];
    const scripted: FairnessCrypto = {
      sha256: (data) => webFairnessCrypto.sha256(data),
      hmacSha256: (_key, data) => {
        messages.push(bytesToHex(data));
        const words = blocks[messages.length - 1] ?? [];
        const block = new Uint8Array(32);
        const view = new DataView(block.buffer);
        words.forEach((word, index) => {
          view.setUint32(index * 4, word);
        });
        return block;
      },
    };
    const ids = [110, 100, 190, 120, 130, 140, 150, 160, 170, 180, 101, 102, 103, 104, 105];
    const ordered = [...ids].sort((a, b) => a - b);
    const { winners, entriesDigest } = await drawWinners(scripted, fixedSeed('scripted', 0), ids);
    // Pick 1, bound 15 (limit 4294967295): 0xffffffff is redrawn, 13 → position 13.
    // Pick 2, bound 14 (limit 4294967292): four values redrawn, 12 → position 1 + 12 = 13, which
    //   now holds the entry swapped out by pick 1 (ordered[0]).
    // Pick 3, bound 13 (limit 4294967287): 0xffffffff and, from the next block, 0xfffffff7 are
    //   redrawn, 7 → position 2 + 7 = 9.
    expect(winners).toEqual([ordered[13], ordered[0], ordered[9]]);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toBe(`${entriesDigest}0000000000000000`);
    expect(messages[1]).toBe(`${entriesDigest}0000000000000001`);
  });
});

describe('checkDraw', () => {
  it('names one winner in the singular and several in the plural', async () => {
    const winnersText = async (players: number) => {
      const checks = await checkDraw(
        crypto,
        await proofFor(fixedSeed('wording', players), [...Array(players).keys()]),
      );
      return checks.find((check) => check.id === 'winners')?.text;
    };
    expect(await winnersText(5)).toMatch(/picks exactly the published winner\.$/);
    expect(await winnersText(15)).toMatch(/picks exactly the 3 published winners\.$/);
  });
});

describe('verifyDrawProof', () => {
  it('accepts a real proof', async () => {
    await fc.assert(
      fc.asyncProperty(seedArb, entriesArb(0, 60), async (seed, entryIds) => {
        expect(await verifyDrawProof(crypto, await proofFor(seed, entryIds))).toEqual({
          ok: true,
        });
      }),
    );
  });

  it('rejects a proof whose seed was changed', async () => {
    await fc.assert(
      fc.asyncProperty(seedArb, seedArb, entriesArb(0, 40), async (seed, other, entryIds) => {
        fc.pre(seed !== other);
        const proof = await proofFor(seed, entryIds);
        const verdict = await verifyDrawProof(crypto, { ...proof, seed: other });
        expect(verdict).toEqual({
          ok: false,
          reason: 'The revealed seed does not match the commitment published before play',
        });
      }),
    );
  });

  it('rejects a proof whose entry list was changed (entry added or removed)', async () => {
    await fc.assert(
      fc.asyncProperty(
        seedArb,
        entriesArb(5, 40),
        fc.integer({ min: 10_000_000_001, max: 20_000_000_000 }),
        fc.boolean(),
        async (seed, entryIds, extra, remove) => {
          const proof = await proofFor(seed, entryIds);
          const entries = remove
            ? proof.entries.slice(1)
            : [...proof.entries, { entryId: extra, username: 'plucker_intruder' }];
          const verdict = await verifyDrawProof(crypto, { ...proof, entries });
          expect(verdict).toEqual({
            ok: false,
            reason: 'The entry list does not match the one the draw used',
          });
        },
      ),
    );
  });

  it('rejects a proof whose winners were changed', async () => {
    await fc.assert(
      fc.asyncProperty(
        seedArb,
        entriesArb(5, 60),
        fc.nat(),
        fc.constantFrom('swap', 'drop', 'add'),
        async (seed, entryIds, pick, change) => {
          const proof = await proofFor(seed, entryIds);
          const losers = entryIds.filter((id) => !proof.winners.includes(id));
          const loser = losers[pick % losers.length] as number;
          const winners =
            change === 'swap'
              ? [loser, ...proof.winners.slice(1)]
              : change === 'drop'
                ? proof.winners.slice(1)
                : [...proof.winners, loser];
          const verdict = await verifyDrawProof(crypto, { ...proof, winners });
          expect(verdict).toEqual({
            ok: false,
            reason: 'The published winners differ from the recomputed ones',
          });
        },
      ),
    );
  });

  it('says the draw has not happened while the seed is still secret', async () => {
    const proof = await proofFor(fixedSeed('secret', 0), [1, 2, 3, 4, 5]);
    expect(await verifyDrawProof(crypto, { ...proof, seed: null, entriesDigest: null })).toEqual({
      ok: false,
      reason: 'The draw has not happened yet',
    });
  });
});

/**
 * Uniformity: over many draws every entry should win with probability k/n, which is 1/5 when n
 * is a multiple of 5 (and a little less otherwise, since k = floor(n / 5)).
 *
 * Pearson's statistic X² = Σ (observed − expected)² / expected over the n entries. A draw picks
 * k distinct winners, so counts are sums of uniform k-subsets rather than multinomial: their
 * covariance is (n − k)/(n − 1) times the multinomial one, hence X² · (n − 1)/(n − k) follows
 * χ²(n − 1) (for k = 1 the factor is 1). Seeds are fixed (sha256 of a label and an index), so the
 * verdict is the same every run and the test cannot flake. The bounds are the χ²(n − 1)
 * quantiles for a significance level α = 0.001 in each tail: too uneven, or suspiciously even.
 */
describe('uniformity (chi-square goodness of fit, α = 0.001 per tail, fixed seeds)', () => {
  const cases = [
    // n entries, draws, χ²(n − 1) quantiles at 0.001 and 0.999
    { n: 5, draws: 2000, lower: 0.0908, upper: 18.467 },
    { n: 10, draws: 2500, lower: 1.152, upper: 27.877 },
    { n: 23, draws: 1500, lower: 6.983, upper: 48.268 },
  ];

  for (const { n, draws, lower, upper } of cases) {
    it(`${n} entries, ${winnerCount(n)} winner(s) per draw, ${draws} draws`, async () => {
      // Unsorted, gappy ids, like a real game's entries.
      const entryIds = Array.from({ length: n }, (_, i) => 1_000 + ((i * 7919) % 997) * 13 + i);
      const wins = new Map<number, number>(entryIds.map((id) => [id, 0]));
      const k = winnerCount(n);
      for (let draw = 0; draw < draws; draw += 1) {
        const { winners } = await drawWinners(crypto, fixedSeed(`chi ${n}`, draw), entryIds);
        for (const winner of winners) wins.set(winner, (wins.get(winner) ?? 0) + 1);
      }
      const expected = (draws * k) / n;
      const pearson = [...wins.values()].reduce(
        (sum, observed) => sum + (observed - expected) ** 2 / expected,
        0,
      );
      const statistic = (pearson * (n - 1)) / (n - k);
      expect(statistic).toBeGreaterThan(lower);
      expect(statistic).toBeLessThan(upper);
      // In plain words: every entry's win rate is close to k/n (1 in 5 for n = 5 and 10).
      for (const count of wins.values()) expect(Math.abs(count / draws - k / n)).toBeLessThan(0.04);
    });
  }
});
