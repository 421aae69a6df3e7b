import { describe, expect, it } from 'vitest';
import { firstRoundAfter, QUICKNET, roundTime, verifyBeaconRound } from './beacon.ts';

// A round of the real League of Entropy quicknet chain, as its relays publish it.
const QUICKNET_ROUND = {
  round: 657413,
  signature:
    'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
  randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
};

describe('the public randomness beacon', () => {
  it('accepts a genuine quicknet round under the League of Entropy key', () => {
    expect(verifyBeaconRound(QUICKNET, QUICKNET_ROUND)).toEqual({ ok: true });
  });

  it('refuses a signature moved to another round, a wrong randomness, and garbage', () => {
    expect(verifyBeaconRound(QUICKNET, { ...QUICKNET_ROUND, round: 657414 })).toEqual({
      ok: false,
      reason: 'The signature of beacon round 657414 is not valid',
    });
    expect(verifyBeaconRound(QUICKNET, { ...QUICKNET_ROUND, randomness: '00'.repeat(32) })).toEqual(
      { ok: false, reason: 'The beacon randomness is not the hash of its signature' },
    );
    expect(verifyBeaconRound(QUICKNET, { ...QUICKNET_ROUND, signature: 'zz' })).toEqual({
      ok: false,
      reason: 'The beacon signature is not hex',
    });
    const otherKey = { ...QUICKNET, publicKey: `a${QUICKNET.publicKey.slice(1)}` };
    expect(verifyBeaconRound(otherKey, QUICKNET_ROUND).ok).toBe(false);
  });

  it('waits for the first round published strictly after the close', () => {
    const genesis = new Date(QUICKNET.genesisTime * 1000);
    expect(roundTime(QUICKNET, 1)).toEqual(genesis);
    expect(roundTime(QUICKNET, 2).getTime() - genesis.getTime()).toBe(3_000);
    // Closing exactly when round 10 is published: that round may already be known, so 11.
    expect(firstRoundAfter(QUICKNET, roundTime(QUICKNET, 10))).toBe(11);
    expect(firstRoundAfter(QUICKNET, new Date(roundTime(QUICKNET, 10).getTime() + 2_999))).toBe(11);
    const closedAt = new Date('2026-11-25T12:00:00.500Z');
    const round = firstRoundAfter(QUICKNET, closedAt);
    expect(roundTime(QUICKNET, round) > closedAt).toBe(true);
    expect(roundTime(QUICKNET, round - 1) <= closedAt).toBe(true);
  });
});
