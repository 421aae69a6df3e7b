import { describe, expect, it } from 'vitest';
import { describeWait, FixedWindowCounter } from './fixed-window.ts';

describe('FixedWindowCounter', () => {
  it('counts hits per key until the window ends, then starts again', () => {
    const counter = new FixedWindowCounter(60_000);
    expect(counter.hit('a', 0)).toEqual({ count: 1, resetsAt: 60_000 });
    expect(counter.hit('a', 59_999).count).toBe(2);
    expect(counter.hit('b', 10).count).toBe(1);
    expect(counter.hit('a', 60_000)).toEqual({ count: 1, resetsAt: 120_000 });
  });

  it('sweeps expired windows and never holds more keys than its capacity', () => {
    const counter = new FixedWindowCounter(1_000, 3);
    for (const key of ['a', 'b', 'c', 'd']) counter.hit(key, 0);
    expect(counter.size).toBe(3);
    expect(counter.hit('a', 1).count).toBe(1);
    counter.hit('e', 500);
    // d (resets at 1,000) goes; a (1,001) and e (1,500) stay.
    counter.sweep(1_000);
    expect(counter.size).toBe(2);
    expect(counter.hit('d', 1_000).count).toBe(1);
  });
});

describe('describeWait', () => {
  it('words seconds and minutes', () => {
    expect(describeWait(1)).toBe('1 second');
    expect(describeWait(40)).toBe('40 seconds');
    expect(describeWait(60)).toBe('1 minute');
    expect(describeWait(900)).toBe('15 minutes');
  });
});
