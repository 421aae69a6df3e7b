import { ANSWER_MAX_CHARACTERS, ANSWER_MAX_WORDS } from '@shared/constants.ts';
import { countWords, visibleAnswerText } from '@shared/games.ts';
import { ANSWER_MAX_SENT_CHARACTERS } from '@shared/schemas/games.ts';
import { sessionCopy } from '@web/lib/storage.ts';

export interface AnswerCheck {
  words: number;
  /** Why the answer cannot be sent yet; null when it can (or when nothing is typed yet). */
  problem: string | null;
  canSubmit: boolean;
}

export const ANSWER_PROBLEMS = {
  tooManyWords: `Too many words: keep it to ${ANSWER_MAX_WORDS} or fewer.`,
  tooLong: `Too long: keep it to ${ANSWER_MAX_CHARACTERS} characters or fewer.`,
} as const;

/**
 * The rules the server enforces (docs/product.md#games-and-draws), on the answer as a reader sees it (the shared rule):
 * 1 to 20 words, at most 280 characters.
 */
export function checkAnswer(answer: string): AnswerCheck {
  const visible = visibleAnswerText(answer);
  const words = countWords(visible);
  if (words > ANSWER_MAX_WORDS)
    return { words, problem: ANSWER_PROBLEMS.tooManyWords, canSubmit: false };
  if (visible.length > ANSWER_MAX_CHARACTERS || answer.length > ANSWER_MAX_SENT_CHARACTERS)
    return { words, problem: ANSWER_PROBLEMS.tooLong, canSubmit: false };
  return { words, problem: null, canSubmit: words > 0 };
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
