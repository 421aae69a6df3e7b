import type { GameStatus } from '../../../shared/constants.ts';

/** Who moves a game: its schedule (the worker), a player, an operator, or its draw. */
export type GameMover = 'schedule' | 'player' | 'operator' | 'draw';

export interface GameMove {
  from: GameStatus;
  to: GameStatus;
  by: GameMover;
  /** When the mover may make it, in words (docs/architecture.md draws the same table). */
  when: string;
}

/**
 * Every way a game's status may change, and nothing else: the writes in `moves.ts` take their
 * conditions from this table, and the database's trigger (`pluckers_game_status_move`) refuses
 * any pair of statuses not in it. UPCOMING → ONGOING → CLOSED → COMPLETED (drawn) or CANCELLED;
 * an operator's edit may move an unplayed game's start either way.
 */
export const GAME_MOVES: readonly GameMove[] = [
  { from: 'UPCOMING', to: 'ONGOING', by: 'schedule', when: 'its start time has come' },
  {
    from: 'UPCOMING',
    to: 'ONGOING',
    by: 'operator',
    when: 'an edit of a game nobody has played starts it now',
  },
  {
    from: 'ONGOING',
    to: 'UPCOMING',
    by: 'operator',
    when: 'an edit of a game nobody has played moves its start into the future',
  },
  { from: 'ONGOING', to: 'CLOSED', by: 'player', when: 'their play takes the last place' },
  { from: 'ONGOING', to: 'CLOSED', by: 'schedule', when: 'its end time has passed' },
  { from: 'UPCOMING', to: 'CLOSED', by: 'operator', when: 'at any time' },
  { from: 'ONGOING', to: 'CLOSED', by: 'operator', when: 'at any time' },
  { from: 'CLOSED', to: 'COMPLETED', by: 'draw', when: 'it has winners to pick' },
  { from: 'CLOSED', to: 'CANCELLED', by: 'draw', when: 'fewer than five players took part' },
  { from: 'UPCOMING', to: 'CANCELLED', by: 'operator', when: 'with a reason' },
  { from: 'ONGOING', to: 'CANCELLED', by: 'operator', when: 'with a reason' },
  {
    from: 'CLOSED',
    to: 'CANCELLED',
    by: 'operator',
    when: 'with a reason, until its draw randomness is public',
  },
];

/** The statuses `by` may move a game to `to` from; none means the move is not theirs to make. */
export function sourcesOf(by: GameMover, to: GameStatus): GameStatus[] {
  return GAME_MOVES.filter((move) => move.by === by && move.to === to).map((move) => move.from);
}

/** Whether any mover may take a game from `from` to `to` (what the trigger allows). */
export function isGameMove(from: GameStatus, to: GameStatus): boolean {
  return GAME_MOVES.some((move) => move.from === from && move.to === to);
}

/** A new game is live at once unless its start is still to come. */
export function openingStatus(startsAt: Date | null, now: Date): 'UPCOMING' | 'ONGOING' {
  return startsAt && startsAt > now ? 'UPCOMING' : 'ONGOING';
}
