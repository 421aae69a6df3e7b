import { describe, expect, it } from 'vitest';
import { noneMatchHits } from './etag.ts';

describe('noneMatchHits', () => {
  const etag = 'W/"abc"';

  it('matches the tag, weak or strong, alone or in a list, and *', () => {
    expect(noneMatchHits('W/"abc"', etag)).toBe(true);
    expect(noneMatchHits('"abc"', etag)).toBe(true);
    expect(noneMatchHits('"x", W/"abc" , "y"', etag)).toBe(true);
    expect(noneMatchHits('*', etag)).toBe(true);
  });

  it('does not match another tag, a part of one, or no header', () => {
    expect(noneMatchHits('W/"abcd"', etag)).toBe(false);
    expect(noneMatchHits('abc', etag)).toBe(false);
    expect(noneMatchHits('', etag)).toBe(false);
    expect(noneMatchHits(undefined, etag)).toBe(false);
  });
});
