import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { type BeaconChain, type BeaconRound, roundMessage } from '../../shared/beacon.ts';
import { bytesToHex } from '../../shared/hex.ts';

/**
 * A local stand-in for a drand relay (GET /{chainHash}/public/{round} → {round, randomness,
 * signature}) that signs rounds the way quicknet does (BLS12-381 short signatures on G1, RFC 9380
 * hash-to-curve) with a test key, so the server verifies them with the very code that checks
 * the League of Entropy's rounds. By default every round is "published", whatever a test's moved
 * clock says; tests can hold rounds back, forge one, or take the beacon down.
 */
export interface FakeBeacon {
  url: string;
  chain: BeaconChain;
  /** BEACON_* variables pointing a server at this beacon. */
  env: Record<string, string>;
  /** Rounds above this answer 425 Too Early (null: every round is out). */
  publishUpTo(round: number | null): void;
  /** Serve this round with another round's signature (a relay lying). */
  forge(round: number): void;
  /** Stop lying. */
  honest(): void;
  /** Answer 503 to everything while down. */
  setDown(down: boolean): void;
  /**
   * Closes the connection of the next `count` requests without an answer, as a kept-alive
   * connection the beacon closed an instant before the request went out over it.
   */
  dropNext(count: number): void;
  sign(round: number): BeaconRound;
  requests: number[];
  close(): Promise<void>;
}

const TEST_SECRET_KEY = createHash('sha256').update('pluckers test beacon').digest();

export async function startFakeBeacon(): Promise<FakeBeacon> {
  const bls = bls12_381.shortSignatures;
  const publicKey = bls.getPublicKey(TEST_SECRET_KEY).toHex();
  const chain: BeaconChain = {
    hash: createHash('sha256').update(publicKey).digest('hex'),
    publicKey,
    genesisTime: 1692803367,
    period: 3,
  };
  let publishedUpTo: number | null = null;
  let down = false;
  let toDrop = 0;
  const forged = new Set<number>();
  const signatures = new Map<number, BeaconRound>();
  const requests: number[] = [];

  function sign(round: number): BeaconRound {
    const known = signatures.get(round);
    if (known) return known;
    const signature = bls.Signature.toBytes(
      bls.sign(bls.hash(roundMessage(round)), TEST_SECRET_KEY),
    );
    const value = {
      round,
      signature: bytesToHex(signature),
      randomness: createHash('sha256').update(signature).digest('hex'),
    };
    signatures.set(round, value);
    return value;
  }

  const server = createServer((request, response) => {
    const match = /^\/([0-9a-f]{64})\/public\/(\d+)$/.exec(request.url ?? '');
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (down) return send(503, { error: 'unavailable' });
    if (!match || match[1] !== chain.hash) return send(404, { error: 'not found' });
    const round = Number(match[2]);
    requests.push(round);
    if (toDrop > 0) {
      toDrop -= 1;
      request.socket.destroy();
      return;
    }
    if (publishedUpTo !== null && round > publishedUpTo) return send(425, { error: 'too early' });
    const value = forged.has(round) ? { ...sign(round + 1), round } : sign(round);
    send(200, value);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    chain,
    env: {
      BEACON_URL: url,
      BEACON_CHAIN_HASH: chain.hash,
      BEACON_PUBLIC_KEY: chain.publicKey,
      BEACON_GENESIS_TIME: String(chain.genesisTime),
      BEACON_PERIOD: String(chain.period),
    },
    publishUpTo: (round) => {
      publishedUpTo = round;
    },
    forge: (round) => forged.add(round),
    honest: () => forged.clear(),
    setDown: (value) => {
      down = value;
    },
    dropNext: (count) => {
      toDrop = count;
    },
    sign,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
