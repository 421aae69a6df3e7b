import type { GameStatus } from '@shared/constants.ts';

export type SubmissionOutcome = 'pending' | 'won' | 'lost' | 'refunded';

export interface SubmissionStatus {
  outcome: SubmissionOutcome;
  label: string;
  /** What the pill means, for people who cannot see its colour. */
  description: string;
}

const STATUSES: Record<SubmissionOutcome, SubmissionStatus> = {
  pending: {
    outcome: 'pending',
    label: 'Pending review',
    description: 'The draw has not happened yet.',
  },
  won: { outcome: 'won', label: 'WON', description: 'Your answer was picked. Congratulations!' },
  lost: { outcome: 'lost', label: 'LOST', description: 'Not picked this time.' },
  refunded: {
    outcome: 'refunded',
    label: 'Refunded',
    description: 'The game was cancelled and your entry fee came back to your wallet.',
  },
};

/**
 * docs/product.md#states: isWinner null = pending review, true = WON, false = LOST. A cancelled game never
 * draws, so its entries would stay "pending" for ever: they read Refunded instead.
 */
export function submissionStatus(played: {
  isWinner: boolean | null;
  game: { status: GameStatus };
}): SubmissionStatus {
  if (played.isWinner === true) return STATUSES.won;
  if (played.isWinner === false) return STATUSES.lost;
  if (played.game.status === 'CANCELLED') return STATUSES.refunded;
  return STATUSES.pending;
}
