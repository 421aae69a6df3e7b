import { describe, expect, it } from 'vitest';
import { ANSWER_PROBLEMS, answerDraft, checkAnswer } from './answer.ts';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

describe('checkAnswer', () => {
  it('cannot send an empty or blank answer, without calling it a mistake', () => {
    expect(checkAnswer('')).toEqual({ words: 0, problem: null, canSubmit: false });
    expect(checkAnswer('   \n\t ')).toEqual({ words: 0, problem: null, canSubmit: false });
  });

  it('accepts 1 to 20 words', () => {
    expect(checkAnswer('jollof')).toEqual({ words: 1, problem: null, canSubmit: true });
    expect(checkAnswer(`  ${words(20)}  `)).toEqual({ words: 20, problem: null, canSubmit: true });
  });

  it('counts words across spaces, tabs and line breaks', () => {
    expect(checkAnswer('rice\nand   beans\tplease').words).toBe(4);
  });

  it('stops a 21st word', () => {
    expect(checkAnswer(words(21))).toEqual({
      words: 21,
      problem: ANSWER_PROBLEMS.tooManyWords,
      canSubmit: false,
    });
  });

  it('stops an answer over 280 characters even within 20 words', () => {
    const long = Array.from({ length: 10 }, () => 'x'.repeat(30)).join(' ');
    expect(checkAnswer(long)).toMatchObject({ words: 10, canSubmit: false });
    expect(checkAnswer(long).problem).toBe(ANSWER_PROBLEMS.tooLong);
  });

  it('counts as the server does: blank fillers split words, invisible characters are nothing', () => {
    const joined = Array.from({ length: 21 }, (_, i) => `w${i}`).join('\u2800');
    expect(checkAnswer(joined)).toEqual({
      words: 21,
      problem: ANSWER_PROBLEMS.tooManyWords,
      canSubmit: false,
    });
    expect(checkAnswer('\u200B\u3164\uFFA0\u200D')).toEqual({
      words: 0,
      problem: null,
      canSubmit: false,
    });
    expect(checkAnswer(`ok${'\u200B'.repeat(400)}`)).toEqual({
      words: 1,
      problem: null,
      canSubmit: true,
    });
  });
});

describe('answerDraft', () => {
  it('keeps a draft per game in sessionStorage until cleared', () => {
    answerDraft.write('game-1', 'suya at midnight');
    answerDraft.write('game-2', 'puff puff');
    expect(answerDraft.read('game-1')).toBe('suya at midnight');
    expect(sessionStorage.getItem('answerDraft:game-1')).toBe('suya at midnight');
    answerDraft.clear('game-1');
    expect(answerDraft.read('game-1')).toBe('');
    expect(answerDraft.read('game-2')).toBe('puff puff');
  });

  it('forgets the draft when the text is emptied', () => {
    answerDraft.write('game-3', 'a');
    answerDraft.write('game-3', '');
    expect(sessionStorage.getItem('answerDraft:game-3')).toBeNull();
  });
});
