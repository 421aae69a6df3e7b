import { afterAll, beforeAll, expect, it } from 'vitest';
import { type FakeBeacon, startFakeBeacon } from '../test/fake-beacon.ts';
import { BeaconUnavailableError, createBeaconClient } from './beacon.ts';

let beacon: FakeBeacon;
beforeAll(async () => {
  beacon = await startFakeBeacon();
});
afterAll(() => beacon.close());

const client = () => createBeaconClient({ url: beacon.url, chain: beacon.chain });

it('asks again at once when the connection closes before any answer, and gets the round', async () => {
  const round = 41_000_001;
  beacon.dropNext(1);
  expect(await client().fetchRound(round, new Date())).toEqual(beacon.sign(round));
  expect(beacon.requests.filter((asked) => asked === round)).toHaveLength(2);
});

it('asks only once more: a beacon that keeps closing the connection is waited for', async () => {
  const round = 41_000_002;
  const now = new Date('2026-11-30T09:00:00Z');
  beacon.dropNext(2);
  const failure = await client()
    .fetchRound(round, now)
    .catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(BeaconUnavailableError);
  expect((failure as BeaconUnavailableError).retryAt).toEqual(new Date(now.getTime() + 15_000));
  expect(beacon.requests.filter((asked) => asked === round)).toHaveLength(2);
});
