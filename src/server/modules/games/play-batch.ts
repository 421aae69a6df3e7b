/** One play's arguments to `pluckers_play`, and its row when it took a place. */
export interface BatchedPlay {
  player: string;
  session: string;
  tokenVersion: number;
  game: string;
  answer: string;
  /** The entry fee the player was shown, in kobo, or null when the request named none. */
  seenFee: string | null;
  /** The reward the player was shown, in kobo, or null when the request named none. */
  seenReward: string | null;
  at: string;
  dayStart: string;
}

/**
 * Why `pluckers_play` refused a play (src/server/db/functions/pluckers_play.sql says when each
 * applies); `last_place` only in a batch, for a play its caller then plays alone.
 */
export type PlayRefusal =
  | 'unauthorized'
  | 'suspended'
  | 'age_unconfirmed'
  | 'paused'
  | 'not_found'
  | 'fee_changed'
  | 'reward_changed'
  | 'not_started'
  | 'full'
  | 'closed'
  | 'tournament_only'
  | 'already_played'
  | 'daily_limit'
  | 'insufficient_funds'
  | 'spend_limit'
  | 'last_place';

/** A play's row from `pluckers_play`: the place it took, or its refusal and what it is told by. */
export type PlayedRow =
  | {
      entry: string | number | bigint;
      game: string;
      players: number;
      fee: string | number | bigint;
      to_win: string | number | bigint;
      /** It took the game's last place: the caller closes the game and queues its draw. */
      last: boolean;
      refusal: null;
    }
  | { refusal: PlayRefusal; detail: Record<string, unknown> | null };

/** node-postgres's pool and PGlite both run text with positional parameters. */
export interface PositionalClient {
  query(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

interface Waiting {
  play: BatchedPlay;
  settle: (row: PlayedRow | null) => void;
}

/**
 * Lanes, each with at most one batch at PostgreSQL. A game's plays always take the same lane, so
 * this instance's batches never wait on each other for a game's row (held until a batch
 * commits); a few lanes keep both cores busy while later plays gather into each lane's next
 * batch instead of each waiting for a connection, a commit and a wake-up of its own.
 */
const LANES = 4;
/** A bound on one transaction's locks and length; more waiting plays go in the next batch. */
const MOST_PLAYS_PER_BATCH = 64;

/** Keys of the JSON objects `pluckers_play_batch` (src/server/db/functions) reads. */
const toJson = ({ play }: Waiting, slot: number) => ({
  n: slot,
  u: play.player,
  s: play.session,
  v: play.tokenVersion,
  g: play.game,
  a: play.answer,
  f: play.seenFee,
  w: play.seenReward,
  t: play.at,
  d: play.dayStart,
});

const BATCH = 'SELECT * FROM pluckers_play_batch($1::jsonb)';

/**
 * Plays that arrive together go to PostgreSQL as one statement and one transaction: each play
 * is decided on its own (`pluckers_play`), but a batch shares the round trip, the
 * statement's planning and the commit's WAL flush, which per play cost more than the play. A
 * play waits for the end of the current turn of the event loop, and for its lane's batch in
 * flight if there is one.
 *
 * Each play's row, its place or its refusal; null for every play of a batch that failed (a
 * deadlock between two batches, a lost connection): nothing of a failed batch was written, and
 * the caller plays each alone, which retries.
 */
export class PlayBatcher {
  readonly #lanes: Lane[];

  constructor(client: PositionalClient) {
    this.#lanes = Array.from({ length: LANES }, () => new Lane(client));
  }

  play(play: BatchedPlay): Promise<PlayedRow | null> {
    // A uuid's last 8 hex digits are random (v4) or a counter: either spreads games evenly.
    const lane = this.#lanes[Number.parseInt(play.game.slice(-8), 16) % LANES] as Lane;
    return lane.play(play);
  }
}

/** Plays waiting for a lane's next batch, sent when the lane's batch in flight (if any) is back. */
class Lane {
  readonly #client: PositionalClient;
  #waiting: Waiting[] = [];
  #busy = false;

  constructor(client: PositionalClient) {
    this.#client = client;
  }

  play(play: BatchedPlay): Promise<PlayedRow | null> {
    return new Promise((settle) => {
      this.#waiting.push({ play, settle });
      if (!this.#busy) {
        this.#busy = true;
        // After the turn's other requests have been read, so they join this batch.
        setImmediate(() => void this.#send());
      }
    });
  }

  async #send(): Promise<void> {
    const batch = this.#waiting.splice(0, MOST_PLAYS_PER_BATCH);
    const played = new Map<number, PlayedRow>();
    try {
      const { rows } = await this.#client.query(BATCH, [JSON.stringify(batch.map(toJson))]);
      for (const row of rows as Array<PlayedRow & { slot: number }>) played.set(row.slot, row);
    } catch {
      // Nothing of the batch was written: each play, left without a row, is played alone.
    }
    for (const [slot, waiting] of batch.entries()) waiting.settle(played.get(slot) ?? null);
    if (this.#waiting.length > 0) void this.#send();
    else this.#busy = false;
  }
}
