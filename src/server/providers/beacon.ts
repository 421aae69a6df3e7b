import {
  type BeaconChain,
  type BeaconRound,
  roundTime,
  verifyBeaconRound,
} from '../../shared/beacon.ts';
import { getOnceMore } from '../lib/get-once-more.ts';

/** Why a round cannot be used yet; the draw waits and asks again, it never picks another source. */
export class BeaconUnavailableError extends Error {
  constructor(
    message: string,
    /** When asking again makes sense. */
    readonly retryAt: Date,
  ) {
    super(message);
    this.name = 'BeaconUnavailableError';
  }
}

export interface BeaconClient {
  chain: BeaconChain;
  /** A round, verified against the chain's public key; throws BeaconUnavailableError. */
  fetchRound(round: number, now: Date): Promise<BeaconRound>;
}

const REQUEST_TIMEOUT_MS = 5_000;
/** After a failure (network, bad signature), the next attempt. */
const RETRY_AFTER_FAILURE_MS = 15_000;
/** A round is asked for slightly after its time: relays publish it within a second or so. */
const PUBLICATION_SLACK_MS = 1_000;

/**
 * drand's HTTP API: GET {url}/{chainHash}/public/{round} answers {round, randomness, signature}
 * once the round exists (404 or 425 Too Early before). The answer is only believed after its
 * BLS signature checks out under the configured public key, so a relay cannot lie.
 */
export function createBeaconClient(options: { url: string; chain: BeaconChain }): BeaconClient {
  const { url, chain } = options;
  return {
    chain,
    async fetchRound(round, now) {
      const publishedAt = roundTime(chain, round);
      const retry = new Date(now.getTime() + RETRY_AFTER_FAILURE_MS);
      let response: Response;
      try {
        response = await getOnceMore(`${url}/${chain.hash}/public/${round}`, {
          headers: { accept: 'application/json' },
          timeoutMs: REQUEST_TIMEOUT_MS,
        });
      } catch {
        throw new BeaconUnavailableError(
          `The randomness beacon could not be reached for round ${round}; retrying`,
          retry,
        );
      }
      // Asked before its time (the beacon is the judge of that, not our clock): ask again when
      // it is due, or shortly if it should be out already.
      if (response.status === 404 || response.status === 425)
        throw new BeaconUnavailableError(
          `Waiting for beacon round ${round}, due at ${publishedAt.toISOString()}`,
          new Date(
            Math.max(
              publishedAt.getTime() + PUBLICATION_SLACK_MS,
              now.getTime() + chain.period * 1000,
            ),
          ),
        );
      if (!response.ok)
        throw new BeaconUnavailableError(
          `The randomness beacon answered ${response.status} for round ${round}; retrying`,
          retry,
        );
      const body = (await response.json().catch(() => null)) as Partial<BeaconRound> | null;
      if (
        !body ||
        body.round !== round ||
        typeof body.signature !== 'string' ||
        typeof body.randomness !== 'string'
      )
        throw new BeaconUnavailableError(
          `The randomness beacon sent a malformed answer for round ${round}; retrying`,
          retry,
        );
      const value = { round, signature: body.signature, randomness: body.randomness };
      const verdict = verifyBeaconRound(chain, value);
      if (!verdict.ok)
        throw new BeaconUnavailableError(`${verdict.reason}: refused, retrying`, retry);
      return value;
    },
  };
}
