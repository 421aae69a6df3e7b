import { describe, expect, it } from 'vitest';
import {
  type FairnessLogRecord,
  fairnessRecordHash,
  GENESIS_HASH,
  verifyFairnessLog,
} from './fairness-log.ts';

function chain(bodies: string[]): FairnessLogRecord[] {
  const records: FairnessLogRecord[] = [];
  let prevHash = GENESIS_HASH;
  for (const [index, body] of bodies.entries()) {
    const hash = fairnessRecordHash(prevHash, body);
    records.push({
      position: index + 1,
      kind: 'commitment',
      gameId: null,
      body,
      prevHash,
      hash,
      createdAt: new Date(0).toISOString(),
    });
    prevHash = hash;
  }
  return records;
}

describe('the fairness log chain', () => {
  const records = chain(['{"a":1}', '{"b":2}', '{"c":3}', '{"d":4}']);

  it('verifies an intact log from the start or from any page', () => {
    expect(verifyFairnessLog(records)).toEqual({
      ok: true,
      checked: 4,
      headHash: records[3]?.hash,
    });
    expect(verifyFairnessLog(records.slice(2), records[1]?.hash, 3)).toMatchObject({ ok: true });
  });

  it('says where a record was rewritten, removed, relinked or started from the wrong place', () => {
    const rewritten = records.map((record) =>
      record.position === 2 ? { ...record, body: '{"b":3}' } : record,
    );
    expect(verifyFairnessLog(rewritten)).toEqual({
      ok: false,
      position: 2,
      reason: 'Record 2 was changed after it was written (its hash does not match its content)',
    });
    // Rewriting it and re-hashing it still breaks the next link.
    const rehashed = rewritten.map((record) =>
      record.position === 2
        ? { ...record, hash: fairnessRecordHash(record.prevHash, record.body) }
        : record,
    );
    expect(verifyFairnessLog(rehashed)).toEqual({
      ok: false,
      position: 3,
      reason: 'Record 3 does not link to the record before it',
    });
    expect(verifyFairnessLog(records.filter((record) => record.position !== 3))).toEqual({
      ok: false,
      position: 3,
      reason: 'Record 3 is missing',
    });
    expect(verifyFairnessLog(records.slice(1), GENESIS_HASH, 2)).toMatchObject({
      ok: false,
      position: 2,
    });
  });
});
