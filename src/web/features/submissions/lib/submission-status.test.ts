import { describe, expect, it } from 'vitest';
import { submissionStatus } from './submission-status.ts';

describe('submissionStatus (docs/product.md#states submission result)', () => {
  it('isWinner null is pending review', () => {
    expect(submissionStatus({ isWinner: null, game: { status: 'ONGOING' } }).label).toBe(
      'Pending review',
    );
    expect(submissionStatus({ isWinner: null, game: { status: 'CLOSED' } }).outcome).toBe(
      'pending',
    );
  });

  it('isWinner true is WON, false is LOST', () => {
    expect(submissionStatus({ isWinner: true, game: { status: 'COMPLETED' } }).label).toBe('WON');
    expect(submissionStatus({ isWinner: false, game: { status: 'COMPLETED' } }).label).toBe('LOST');
  });

  it('a cancelled game never draws: its entries read Refunded, not pending for ever', () => {
    const status = submissionStatus({ isWinner: null, game: { status: 'CANCELLED' } });
    expect(status.outcome).toBe('refunded');
    expect(status.label).toBe('Refunded');
  });
});
