import { describe, expect, it } from 'vitest';
import { categoryBodySchema } from './admin.ts';

describe('categoryBodySchema', () => {
  it('takes one emoji as players see it: pictographs, skin tones, joined sequences, flags', () => {
    for (const emoji of ['⚽', '❤️', '👩🏾‍🍳', '🇳🇬', '🧠', '🎵', '🎬', '🍲', '💻', '🎲'])
      expect(categoryBodySchema.safeParse({ title: 'Sports', emoji }).success, emoji).toBe(true);
  });

  it('refuses text, several emoji or an emoji with text, with one clear message', () => {
    for (const emoji of ['0B=,NN{f(', 'a', '⚽⚽', '⚽ ball', '1']) {
      const result = categoryBodySchema.safeParse({ title: 'Sports', emoji });
      expect(result.success, emoji).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Use a single emoji');
    }
  });
});
