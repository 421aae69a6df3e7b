import { describe, expect, it } from 'vitest';
import {
  countWords,
  isAnswerWithinWordLimit,
  isFreeGame,
  placesLeft,
  placesLeftText,
} from './games.ts';

describe('placesLeftText', () => {
  it("says 'Plucker' for one place and 'Pluckers' above one (spec §2)", () => {
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

  it('a game with a 0 or missing entry fee is free (spec §3)', () => {
    expect(isFreeGame({ entryFee: 0 })).toBe(true);
    expect(isFreeGame({})).toBe(true);
    expect(isFreeGame({ entryFee: null })).toBe(true);
    expect(isFreeGame({ entryFee: 100 })).toBe(false);
  });

  it('an answer has 1 to 20 words', () => {
    expect(countWords('  hello   big\nworld ')).toBe(3);
    expect(isAnswerWithinWordLimit('   ')).toBe(false);
    expect(isAnswerWithinWordLimit(Array(20).fill('w').join(' '))).toBe(true);
    expect(isAnswerWithinWordLimit(Array(21).fill('w').join(' '))).toBe(false);
  });
});
