import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, startInstance } from '../test/instances.ts';
import { requireTestDatabaseUrl } from '../test/scratch-database.ts';

// Three real server processes on one PostgreSQL, each trusting the balancer's X-Forwarded-For
// (on 127.0.0.1): a client's burst split across them must get exactly its budget, however fast
// it comes.
const LIMIT = 60;

/** A client address of its own, so runs sharing a database never share a budget. */
const clientAddress = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

describe('the per-client API limit across three instances', () => {
  let instances: Instance[] = [];

  beforeAll(async () => {
    instances = await Promise.all(
      [0, 1, 2].map(() =>
        startInstance(requireTestDatabaseUrl(), {
          RATE_LIMIT_MAX: String(LIMIT),
          TRUST_PROXY: '127.0.0.1',
        }),
      ),
    );
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill()));
  });

  /** Sends `requests` at once, spread round robin; the status of each answer. */
  async function burst(requests: number, client: string): Promise<number[]> {
    return Promise.all(
      Array.from({ length: requests }, async (_, index) => {
        const instance = instances[index % instances.length] as Instance;
        const response = await fetch(`${instance.url}/api/v1/category`, {
          headers: { 'x-forwarded-for': client },
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
  }

  it('lets exactly the limit through a burst of 300 sent at once to all three', async () => {
    const statuses = await burst(300, clientAddress());
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(300 - LIMIT);
  });

  it('lets exactly the limit through a client coming back to each instance in turn', async () => {
    const client = clientAddress();
    let allowed = 0;
    for (let request = 0; request < 2 * LIMIT; request += 1) {
      const instance = instances[request % instances.length] as Instance;
      const response = await fetch(`${instance.url}/api/v1/category`, {
        headers: { 'x-forwarded-for': client },
      });
      if (response.status === 200) allowed += 1;
      else expect(response.status).toBe(429);
      await response.arrayBuffer();
    }
    expect(allowed).toBe(LIMIT);
    for (const instance of instances) {
      const refused = await fetch(`${instance.url}/api/v1/category`, {
        headers: { 'x-forwarded-for': client },
      });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Health probes are never limited.
      const health = await fetch(`${instance.url}/api/health/ready`, {
        headers: { 'x-forwarded-for': client },
      });
      expect(health.status).toBe(200);
    }
    // Another client keeps its own budget.
    expect(await burst(3, clientAddress())).toEqual([200, 200, 200]);
  });
});
