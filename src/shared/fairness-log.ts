/**
 * The public fairness log: every commitment, seal, beacon round, result and cancellation, each
 * record carrying the hash of the one before. Rewriting any record changes its hash and breaks
 * every later link, so whoever holds an old head (or a downloaded copy) sees the change.
 *
 * hash(record) = sha256(prevHash + "\n" + body), hex; the first record's prevHash is 64 zeros.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { FairnessLogKind } from './constants.ts';
import { bytesToHex } from './hex.ts';

export const GENESIS_HASH = '0'.repeat(64);

export interface FairnessLogRecord {
  position: number;
  kind: FairnessLogKind;
  gameId: string | null;
  body: string;
  prevHash: string;
  hash: string;
  createdAt: string;
}

export function fairnessRecordHash(prevHash: string, body: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(`${prevHash}\n${body}`)));
}

export type LogVerdict =
  | { ok: true; checked: number; headHash: string }
  | { ok: false; position: number; reason: string };

/**
 * Checks consecutive records: positions without gaps, each linked to the previous hash (the
 * caller passes the hash before the first record when checking a page from the middle), each
 * hash recomputed from its body.
 */
export function verifyFairnessLog(
  records: readonly FairnessLogRecord[],
  prevHash = GENESIS_HASH,
  firstPosition = records[0]?.position ?? 1,
): LogVerdict {
  let previous = prevHash;
  let expected = firstPosition;
  for (const record of records) {
    if (record.position !== expected)
      return { ok: false, position: expected, reason: `Record ${expected} is missing` };
    if (record.prevHash !== previous)
      return {
        ok: false,
        position: record.position,
        reason: `Record ${record.position} does not link to the record before it`,
      };
    if (fairnessRecordHash(record.prevHash, record.body) !== record.hash)
      return {
        ok: false,
        position: record.position,
        reason: `Record ${record.position} was changed after it was written (its hash does not match its content)`,
      };
    previous = record.hash;
    expected += 1;
  }
  return { ok: true, checked: records.length, headHash: previous };
}
