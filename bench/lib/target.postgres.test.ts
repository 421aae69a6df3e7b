import { describe, expect, inject, it } from 'vitest';
import { postgresTarget } from './target.ts';

describe('bench on PostgreSQL', () => {
  it('refuses a second run on the same server while one holds it, and lets it in after', async () => {
    const url = inject('testDatabaseUrl');
    if (!url) throw new Error('*.postgres.test.ts runs only with TEST_DATABASE_URL');
    // A bench database name of its own, so a real bench running meanwhile is not involved.
    const database = `pluckers_bench_test_${Math.random().toString(36).slice(2, 10)}`;
    const first = postgresTarget(url, { database });
    const second = postgresTarget(url, { database });

    await first.claim();
    await expect(second.claim()).rejects.toThrow(/another bench is running on this server/);

    await first.cleanup();
    await second.claim();
    await second.cleanup();
  });
});
