import {
  ANSWER_MAX_CHARACTERS,
  ANSWER_MAX_SENT_CHARACTERS,
  ANSWER_MAX_WORDS,
  type GameStatus,
} from './constants.ts';
import { formatDate } from './date.ts';

/** '{n} Plucker(s) Left', plural when n is above 1 (docs/product.md#screens). */
export function placesLeftText(placesLeft: number): string {
  const n = Math.max(0, Math.trunc(placesLeft));
  return `${n} ${n > 1 ? 'Pluckers' : 'Plucker'} Left`;
}

export function placesLeft(game: { maximumPlayers: number; playerCount: number }): number {
  return Math.max(0, game.maximumPlayers - game.playerCount);
}

/**
 * What a player waiting for a draw wants to know: how full the game is and
 * when its draw runs: when the last place is taken, or at its end time if it has one.
 */
export function pendingDrawText(game: {
  maximumPlayers: number;
  playerCount: number;
  status: GameStatus;
  endsAt: string | null;
}): string {
  if (game.status === 'CLOSED') return 'The game is closed: the draw runs in a moment.';
  const filled = `${game.playerCount} of ${game.maximumPlayers} places filled`;
  const when = game.endsAt
    ? `when the game is full or at ${formatDate(game.endsAt)}`
    : 'when the game is full';
  return `${filled} — the draw runs ${when}.`;
}

/**
 * Where a game opens in the web app: the id makes the page survive a refresh and lets players
 * share it; notifications about a game lead there too.
 */
export function gameDetailsPath(gameId: string): string {
  return `/GameDetails?id=${encodeURIComponent(gameId)}`;
}

/** Where notifications about money lead: the wallet (balance, withdrawals, payments). */
export const WALLET_PATH = '/wallet';

export function isFreeGame(game: { entryFee?: number | null }): boolean {
  return !game.entryFee;
}

/**
 * Characters that show as blank space but that JavaScript's `\s` does not know (fillers and
 * blank patterns): a reader sees a gap, so they separate words like a space does.
 */
const BLANK_FILLERS = /[\u115F\u1160\u180E\u2800\u3164\uFFA0]/gu;
/**
 * Characters that show as nothing (Unicode's default-ignorable code points: zero-width spaces,
 * soft hyphens, bidi controls, tags …, plus the interlinear annotation marks). Joiners and
 * variation selectors are left to the two rules below, which keep them where they shape
 * something visible (an emoji sequence, a Persian word).
 */
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: the class matches the selectors themselves.
  /(?![\u180B-\u180D\u180F\u200C-\u200D\uFE00-\uFE0F\u{E0100}-\u{E01EF}])\p{Default_Ignorable_Code_Point}|[\uFFF9-\uFFFB]/gu;
/** A joiner shapes something only between two visible characters; anywhere else it is hidden. */
const JOINERS =
  /([\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Emoji_Modifier}])?([\u200C-\u200D]+)(?=([\p{L}\p{M}\p{N}\p{Extended_Pictographic}])?)/gu;
/**
 * A variation selector shows only as the variant of the character before it (an emoji, an
 * ideograph, a Mongolian letter), once; any other, or a second one, shows nothing.
 */
const SELECTORS =
  /((?![\u180B-\u180F])[\p{Emoji}\p{Ideographic}\p{Script=Mongolian}])?([\u180B-\u180D\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]+)/gu;

/**
 * The answer as a reader sees it: invisible characters removed, anything that shows as blank
 * space turned into one plain space, trimmed. Word counts, the empty check and the character
 * limit are all taken on this text, so nothing hidden can stretch or fake an answer.
 */
export function visibleAnswerText(answer: string): string {
  return answer
    .replace(BLANK_FILLERS, ' ')
    .replace(INVISIBLE, '')
    .replace(SELECTORS, (_match, base: string | undefined, selectors: string) =>
      base ? base + String.fromCodePoint(selectors.codePointAt(0) ?? 0) : '',
    )
    .replace(JOINERS, (_match, before: string | undefined, joiners: string, after?: string) =>
      before && after && joiners.length === 1 ? before + joiners : (before ?? ''),
    )
    .replace(/\s+/gu, ' ')
    .trim();
}

const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const READABLE = /[\p{L}\p{N}\p{Extended_Pictographic}]/u;
/** Dashes between two words without a space make one word to a reader ("well-known"). */
const CONNECTOR = /^\p{Pd}$/u;
let wordSegmenter: Intl.Segmenter | undefined;

/**
 * Words as a reader counts them: Unicode word segmentation (so scripts written without spaces
 * count their words too), where an emoji counts as a word and punctuation alone does not.
 */
export function countWords(answer: string): number {
  const text = visibleAnswerText(answer);
  if (text === '') return 0;
  // Browsers from before Intl.Segmenter (Firefox before 125) count by spaces; the server,
  // which always has it, decides.
  if (typeof Intl.Segmenter !== 'function')
    return text.split(' ').filter((chunk) => READABLE.test(chunk)).length;
  wordSegmenter ??= new Intl.Segmenter('en', { granularity: 'word' });
  let words = 0;
  let previous: 'word' | 'connector' | 'other' = 'other';
  for (const { segment, isWordLike } of wordSegmenter.segment(text)) {
    if (isWordLike || PICTOGRAPH.test(segment)) {
      if (previous !== 'connector') words += 1;
      previous = 'word';
    } else {
      previous = previous === 'word' && CONNECTOR.test(segment) ? 'connector' : 'other';
    }
  }
  return words;
}

/** Why an answer cannot be sent; src/shared/messages.ts ANSWER_MESSAGES says each to the player. */
export type AnswerProblem = 'empty' | 'tooManyWords' | 'tooLong';

export interface AnswerCheck {
  /** The answer as a reader sees it: what is counted, and what the server stores. */
  visible: string;
  words: number;
  /** The first rule it breaks, null when it may be sent. */
  problem: AnswerProblem | null;
}

/**
 * The answer rule (docs/product.md#games-and-draws), the one the server's play enforces and the
 * answer dialog shows as the player types: on the visible text, 1 to 20 words and at most 280
 * characters; the text sent at most four times that.
 */
export function checkAnswerRule(answer: string): AnswerCheck {
  const visible = visibleAnswerText(answer);
  const words = countWords(visible);
  let problem: AnswerProblem | null = null;
  if (words === 0) problem = 'empty';
  else if (words > ANSWER_MAX_WORDS) problem = 'tooManyWords';
  else if (visible.length > ANSWER_MAX_CHARACTERS || answer.length > ANSWER_MAX_SENT_CHARACTERS)
    problem = 'tooLong';
  return { visible, words, problem };
}
