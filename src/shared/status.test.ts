import { describe, expect, it } from 'vitest';
import { LEVEL_THRESHOLDS, levelForPoints } from './constants.ts';
import { isSuccessStatus, levelBadge, levelTone, statusTone } from './status.ts';

describe('statusTone (docs/product.md#states)', () => {
  it("is green for 'success' and 'successful', whatever the case", () => {
    for (const status of ['success', 'successful', 'SUCCESS', 'Successful', 'SuCcEsSfUl']) {
      expect(statusTone(status)).toBe('success');
      expect(isSuccessStatus(status)).toBe(true);
    }
  });

  it("is red for 'failed' and 'cancelled', whatever the case", () => {
    for (const status of ['failed', 'cancelled', 'FAILED', 'Cancelled']) {
      expect(statusTone(status)).toBe('danger');
      expect(isSuccessStatus(status)).toBe(false);
    }
  });

  it('is yellow for anything else', () => {
    for (const status of [
      'pending',
      'PENDING',
      'processing',
      'successfully',
      'canceled',
      '',
      null,
      undefined,
    ]) {
      expect(statusTone(status)).toBe('warning');
    }
  });
});

describe('levelBadge and levelTone (docs/product.md#states)', () => {
  it('names level 1 Rookie, 2 Rising Talent, anything else Steady Player', () => {
    expect(levelBadge(1)).toBe('Rookie');
    expect(levelBadge(2)).toBe('Rising Talent');
    expect(levelBadge(3)).toBe('Steady Player');
    expect(levelBadge(5)).toBe('Steady Player');
  });

  it('colours level 1 green, 2 blue, 3 purple, anything else grey', () => {
    expect(levelTone(1)).toBe('green');
    expect(levelTone(2)).toBe('blue');
    expect(levelTone(3)).toBe('purple');
    expect(levelTone(4)).toBe('grey');
    expect(levelTone(5)).toBe('grey');
  });
});

describe('levelForPoints (docs/product.md#games-and-draws)', () => {
  it('uses the thresholds 100, 500, 2000 and 10000', () => {
    expect(LEVEL_THRESHOLDS).toEqual([100, 500, 2000, 10_000]);
  });

  it('gives level 1 under 100, 2 under 500, 3 under 2000, 4 under 10000, then 5', () => {
    const cases: Array<[number, number]> = [
      [0, 1],
      [99, 1],
      [100, 2],
      [499, 2],
      [500, 3],
      [1999, 3],
      [2000, 4],
      [9999, 4],
      [10_000, 5],
      [1_000_000, 5],
    ];
    for (const [points, level] of cases)
      expect(levelForPoints(points), `${points} points`).toBe(level);
  });

  it('never lowers the level as points grow', () => {
    let previous = levelForPoints(0);
    for (let points = 0; points <= 12_000; points += 10) {
      const level = levelForPoints(points);
      expect(level).toBeGreaterThanOrEqual(previous);
      previous = level;
    }
  });
});
