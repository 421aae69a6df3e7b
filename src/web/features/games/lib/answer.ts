import { ANSWER_MAX_CHARACTERS, ANSWER_MAX_WORDS } from '@shared/constants.ts';
import { checkAnswerRule } from '@shared/games.ts';
import { sessionCopy } from '@web/lib/storage.ts';

export interface AnswerCheck {
  words: number;
  /** Why the answer cannot be sent yet; null when it can (or when nothing is typed yet). */
  problem: string | null;
  canSubmit: boolean;
}

/** The rule's problems as the dialog says them while the player types (the server's are briefer). */
export const ANSWER_PROBLEMS = {
  tooManyWords: `Too many words: keep it to ${ANSWER_MAX_WORDS} or fewer.`,
  tooLong: `Too long: keep it to ${ANSWER_MAX_CHARACTERS} characters or fewer.`,
} as const;

/** The server's rule (src/shared/games.ts) as the player types: an empty answer is no mistake yet. */
export function checkAnswer(answer: string): AnswerCheck {
  const { words, problem } = checkAnswerRule(answer);
  return {
    words,
    problem: problem === null || problem === 'empty' ? null : ANSWER_PROBLEMS[problem],
    canSubmit: problem === null,
  };
}

/**
 * The answer being typed, kept per game in sessionStorage until it is sent: players on weak
 * networks lose tabs and reload, and should not lose their words with them.
 */
const draftKey = (gameId: string) => `answerDraft:${gameId}`;

export const answerDraft = {
  read: (gameId: string) => sessionCopy.get(draftKey(gameId)) ?? '',
  write: (gameId: string, answer: string) => {
    if (answer === '') sessionCopy.remove(draftKey(gameId));
    else sessionCopy.set(draftKey(gameId), answer);
  },
  clear: (gameId: string) => sessionCopy.remove(draftKey(gameId)),
};
