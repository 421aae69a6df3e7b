import { describe, expect, it } from 'vitest';
import { entriesDigestOf } from '../../../shared/fairness.ts';
import { entriesDigestOfSorted, nodeFairnessCrypto } from './commitment.ts';

describe('the entries digest fed in chunks', () => {
  it('equals the digest of the whole list joined at once, at and around chunk boundaries', async () => {
    for (const size of [0, 1, 2, 9_999, 10_000, 10_001, 20_000, 25_003]) {
      const ids = Array.from({ length: size }, (_, i) => 3 * i + 7);
      expect(entriesDigestOfSorted(ids), `${size} ids`).toBe(
        await entriesDigestOf(nodeFairnessCrypto, ids),
      );
    }
  });
});
