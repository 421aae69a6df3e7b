import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppConfig } from '../config.ts';
import { type BeaconClient, createBeaconClient } from '../providers/beacon.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The public randomness beacon sealed draws wait for (BEACON_*). */
    beacon: BeaconClient;
  }
}

export default fp<{ config: AppConfig }>(
  async function beaconPlugin(app: FastifyInstance, { config }) {
    app.decorate('beacon', createBeaconClient(config.beacon));
  },
  { name: 'beacon' },
);
