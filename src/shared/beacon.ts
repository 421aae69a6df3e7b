/**
 * The public randomness beacon a draw waits for: drand, run by the League of Entropy. Its
 * quicknet chain publishes a round every 3 seconds; round r is a BLS12-381 short signature (on
 * G1, RFC 9380 hash-to-curve) of sha256(r as a 64-bit big-endian integer) under the chain's
 * public key, and its randomness is sha256(signature). Nobody, the operator included, knows a
 * round's value before the League publishes it, and anyone can check it with the public key.
 */
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from './hex.ts';

export interface BeaconChain {
  /** The chain's hash: its identity in the beacon's URLs. */
  hash: string;
  /** G2 public key, hex. */
  publicKey: string;
  /** Unix seconds of round 1. */
  genesisTime: number;
  /** Seconds between rounds. */
  period: number;
}

/** drand quicknet (scheme bls-unchained-g1-rfc9380), as its /info endpoint publishes it. */
export const QUICKNET: BeaconChain = {
  hash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  genesisTime: 1692803367,
  period: 3,
};

export interface BeaconRound {
  round: number;
  /** Hex of the 48-byte compressed G1 signature. */
  signature: string;
  /** Hex of sha256(signature). */
  randomness: string;
}

/** When round `round` is published. */
export function roundTime(chain: BeaconChain, round: number): Date {
  return new Date((chain.genesisTime + (round - 1) * chain.period) * 1000);
}

/**
 * The first round published strictly after `time`: the round a game closing at `time` waits for.
 * It did not exist when the entries were sealed, so nobody could know it then.
 */
export function firstRoundAfter(chain: BeaconChain, time: Date): number {
  const elapsed = Math.floor(time.getTime() / 1000) - chain.genesisTime;
  return elapsed < 0 ? 1 : Math.floor(elapsed / chain.period) + 2;
}

/** The message a round signs: sha256 of the round number as 8 big-endian bytes. */
export function roundMessage(round: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(round));
  return sha256(bytes);
}

export type BeaconVerdict = { ok: true } | { ok: false; reason: string };

/** Checks a round against the chain's public key; nothing else about it is trusted. */
export function verifyBeaconRound(chain: BeaconChain, value: BeaconRound): BeaconVerdict {
  let signature: Uint8Array;
  try {
    signature = hexToBytes(value.signature);
  } catch {
    return { ok: false, reason: 'The beacon signature is not hex' };
  }
  if (bytesToHex(sha256(signature)) !== value.randomness.toLowerCase())
    return { ok: false, reason: 'The beacon randomness is not the hash of its signature' };
  const bls = bls12_381.shortSignatures;
  let valid = false;
  try {
    valid = bls.verify(signature, bls.hash(roundMessage(value.round)), hexToBytes(chain.publicKey));
  } catch {
    valid = false;
  }
  return valid
    ? { ok: true }
    : { ok: false, reason: `The signature of beacon round ${value.round} is not valid` };
}
