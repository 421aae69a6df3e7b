import { describe, expect, it } from 'vitest';
import { describeWait } from './describe-wait.ts';

describe('describeWait', () => {
  it('words seconds and minutes', () => {
    expect(describeWait(1)).toBe('1 second');
    expect(describeWait(40)).toBe('40 seconds');
    expect(describeWait(60)).toBe('1 minute');
    expect(describeWait(900)).toBe('15 minutes');
  });
});
