import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyText } from '../test/arbitraries.ts';
import {
  checkAnswerRule,
  countWords,
  isFreeGame,
  placesLeft,
  placesLeftText,
  visibleAnswerText,
} from './games.ts';

describe('placesLeftText', () => {
  it("says 'Plucker' for one place and 'Pluckers' above one (docs/product.md#screens)", () => {
    expect(placesLeftText(1)).toBe('1 Plucker Left');
    expect(placesLeftText(2)).toBe('2 Pluckers Left');
    expect(placesLeftText(45)).toBe('45 Pluckers Left');
  });

  it('shows 0 when no places are left, and never a negative count', () => {
    expect(placesLeftText(0)).toBe('0 Plucker Left');
    expect(placesLeftText(-3)).toBe('0 Plucker Left');
  });

  it('counts whole places only', () => {
    expect(placesLeftText(2.9)).toBe('2 Pluckers Left');
  });
});

describe('game helpers', () => {
  it('places left is maximum minus count, floored at 0', () => {
    expect(placesLeft({ maximumPlayers: 50, playerCount: 5 })).toBe(45);
    expect(placesLeft({ maximumPlayers: 5, playerCount: 5 })).toBe(0);
    expect(placesLeft({ maximumPlayers: 5, playerCount: 7 })).toBe(0);
  });

  it('a game with a 0 or missing entry fee is free (docs/product.md#data)', () => {
    expect(isFreeGame({ entryFee: 0 })).toBe(true);
    expect(isFreeGame({})).toBe(true);
    expect(isFreeGame({ entryFee: null })).toBe(true);
    expect(isFreeGame({ entryFee: 100 })).toBe(false);
  });

  it('an answer has 1 to 20 words', () => {
    expect(countWords('  hello   big\nworld ')).toBe(3);
    expect(checkAnswerRule('   ').problem).toBe('empty');
    expect(checkAnswerRule(Array(20).fill('w').join(' ')).problem).toBeNull();
    expect(checkAnswerRule(Array(21).fill('w').join(' ')).problem).toBe('tooManyWords');
  });
});

describe('checkAnswerRule', () => {
  it('keeps the visible text, trimmed and with its blanks folded, and counts its words', () => {
    expect(checkAnswerRule('  jollof\u2800\u200Brice \n')).toEqual({
      visible: 'jollof rice',
      words: 2,
      problem: null,
    });
  });

  it('takes at most 280 visible characters, however many invisible ones come with them', () => {
    const exactly280 = `${'a'.repeat(139)} ${'b'.repeat(140)}`;
    expect(checkAnswerRule(exactly280).problem).toBeNull();
    expect(checkAnswerRule(`${exactly280}b`).problem).toBe('tooLong');
    expect(checkAnswerRule(`ok${'\u200B'.repeat(1000)}`).problem).toBeNull();
  });

  it('bounds the text sent at four times 280 characters, invisible or not', () => {
    expect(checkAnswerRule(`ok${'\u200B'.repeat(1118)}`).problem).toBeNull();
    expect(checkAnswerRule(`ok${'\u200B'.repeat(1119)}`).problem).toBe('tooLong');
  });

  it('names the first rule broken: empty, then too many words, then too long', () => {
    expect(checkAnswerRule('.'.repeat(300)).problem).toBe('empty');
    expect(checkAnswerRule(Array(30).fill('x'.repeat(20)).join(' ')).problem).toBe('tooManyWords');
  });
});

/** Characters that show as blank space, and characters that show as nothing at all. */
const BLANKS = [
  '\u2800', // braille pattern blank
  '\u3164', // hangul filler
  '\uFFA0', // halfwidth hangul filler
  '\u115F', // hangul choseong filler
  '\u1160', // hangul jungseong filler
  '\u00A0',
  '\u2000',
  '\u2005',
  '\u200A',
  '\u202F',
  '\u205F',
  '\u3000',
  '\u180E', // mongolian vowel separator
  '\u2028',
];
const INVISIBLES = [
  '\u200B', // zero-width space
  '\u200C', // zero-width non-joiner
  '\u200D', // zero-width joiner
  '\u2060', // word joiner
  '\uFEFF', // byte order mark
  '\u00AD', // soft hyphen
  '\u034F', // combining grapheme joiner
  '\u061C', // arabic letter mark
  '\u200E', // left-to-right mark
  '\u202A',
  '\u202E', // right-to-left override
  '\u2066',
  '\u2069',
  '\u2062', // invisible times
  '\uFE0F', // variation selector, alone
  '\u{E0041}', // tag letter A
  '\u{E007F}', // cancel tag
  '\u{1D173}', // musical symbol begin beam
];

describe('word counting as a reader sees it', () => {
  it('words joined by characters that show as blank space are separate words', () => {
    for (const blank of BLANKS) {
      const joined = Array.from({ length: 21 }, (_, i) => `word${i}`).join(blank);
      expect(countWords(joined), `U+${blank.codePointAt(0)?.toString(16)}`).toBe(21);
      expect(checkAnswerRule(joined).problem).toBe('tooManyWords');
    }
  });

  it('an answer of blank or invisible characters only is empty', () => {
    for (const character of [...BLANKS, ...INVISIBLES]) {
      const code = `U+${character.codePointAt(0)?.toString(16)}`;
      expect(countWords(character.repeat(5)), code).toBe(0);
      expect(visibleAnswerText(` ${character.repeat(3)} `), code).toBe('');
      expect(checkAnswerRule(character.repeat(5)).problem).toBe('empty');
    }
    expect(countWords(INVISIBLES.join(''))).toBe(0);
    expect(countWords(BLANKS.join(INVISIBLES.join('')))).toBe(0);
  });

  it('invisible characters are removed, not read as spaces: they neither split nor hide a word', () => {
    expect(visibleAnswerText('jol\u200Blof\u00AD rice\u2060')).toBe('jollof rice');
    expect(visibleAnswerText('\u202Eevil\u202C text\u2069')).toBe('evil text');
    expect(visibleAnswerText('hidden\u{E0068}\u{E0069}')).toBe('hidden');
    expect(countWords('jol\u200Blof')).toBe(1);
  });

  it('blank characters become one plain space; the text is trimmed', () => {
    expect(visibleAnswerText('\u3000rice\u2800\u2800and\u00A0\u3164beans\uFFA0')).toBe(
      'rice and beans',
    );
  });

  it('keeps what a reader sees: emoji sequences, variation selectors on their base, joiners inside words', () => {
    for (const text of ['👩‍💻', '❤️‍🔥', '❤️', '👍🏽', 'می‌خواهم', 'é', '1️⃣']) {
      expect(visibleAnswerText(text), text).toBe(text);
    }
    expect(countWords('I ❤️ suya')).toBe(3);
    expect(countWords('🔥🔥')).toBe(2);
  });

  it('counts words of scripts written without spaces', () => {
    expect(countWords('我喜欢吃饭')).toBeGreaterThan(1);
  });

  it('a hyphenated or apostrophised word is one word, punctuation alone is none', () => {
    expect(countWords('well-known rock-and-roll')).toBe(2);
    expect(countWords("don't stop")).toBe(2);
    expect(countWords('rice, beans; plantain!')).toBe(3);
    expect(countWords('... !!! ???')).toBe(0);
  });

  it('counts without Intl.Segmenter too (older browsers), by spaces', () => {
    const segmenter = Intl.Segmenter;
    try {
      Object.defineProperty(Intl, 'Segmenter', { value: undefined, configurable: true });
      expect(countWords('rice\u2800and\u3164beans')).toBe(3);
      expect(countWords('\u200B\u200B')).toBe(0);
      expect(countWords('well-known 🔥 !!!')).toBe(2);
    } finally {
      Object.defineProperty(Intl, 'Segmenter', {
        value: segmenter,
        configurable: true,
        writable: true,
      });
    }
  });

  it('property: any mix of blanks and invisibles between words never lowers the count', () => {
    const separator = fc
      .array(fc.constantFrom(...BLANKS, ...INVISIBLES, ' ', '\n', '\t'), {
        minLength: 1,
        maxLength: 4,
      })
      .filter((parts) => parts.some((part) => [...BLANKS, ' ', '\n', '\t'].includes(part)))
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 30 }),
        fc.array(separator, { minLength: 30, maxLength: 30 }),
        (words, separators) => {
          const text = words.map((word, i) => `${word}${separators[i]}`).join('');
          expect(countWords(text)).toBe(words.length);
          expect(visibleAnswerText(text)).toBe(words.join(' '));
          // At most 30 words of 8 letters: never over 280 characters, so only the count decides.
          expect(checkAnswerRule(text).problem).toBe(words.length <= 20 ? null : 'tooManyWords');
        },
      ),
      { seed: 12_007 },
    );
  });

  it('property: text of only blanks and invisibles is always empty', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...BLANKS, ...INVISIBLES, ' ', '\n')), (parts) => {
        expect(visibleAnswerText(parts.join(''))).toBe('');
        expect(countWords(parts.join(''))).toBe(0);
      }),
      { seed: 12_007 },
    );
  });

  it('property: cleaning is idempotent and never leaves an invisible or non-space blank', () => {
    fc.assert(
      fc.property(anyText({ maxLength: 60 }), (text) => {
        const clean = visibleAnswerText(text);
        expect(visibleAnswerText(clean)).toBe(clean);
        expect(countWords(clean)).toBe(countWords(text));
        expect(clean).not.toMatch(/^\s|\s$|\s\s|[^\S ]/u);
        for (const character of [...BLANKS, ...INVISIBLES].filter(
          (c) => !'\u200C\u200D\uFE0F'.includes(c),
        ))
          expect(clean).not.toContain(character);
      }),
      { seed: 12_007 },
    );
  });
});
