import { ANSWER_MAX_WORDS, type GameStatus } from './constants.ts';

/** '{n} Plucker(s) Left', plural when n is above 1 (spec §2). */
export function placesLeftText(placesLeft: number): string {
  const n = Math.max(0, Math.trunc(placesLeft));
  return `${n} ${n > 1 ? 'Pluckers' : 'Plucker'} Left`;
}

export function placesLeft(game: { maximumPlayers: number; playerCount: number }): number {
  return Math.max(0, game.maximumPlayers - game.playerCount);
}

export function isFreeGame(game: { entryFee?: number | null }): boolean {
  return !game.entryFee;
}

export function countWords(answer: string): number {
  const trimmed = answer.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

export function isAnswerWithinWordLimit(answer: string): boolean {
  const words = countWords(answer);
  return words >= 1 && words <= ANSWER_MAX_WORDS;
}

export function isPlayable(status: GameStatus): boolean {
  return status === 'ONGOING';
}
