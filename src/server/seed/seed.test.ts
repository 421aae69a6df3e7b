import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { type Database, type DatabaseHandle, openDatabase } from '../db/client.ts';
import { banks, categories, games, plans, settings } from '../db/schema.ts';
import { commitmentFor } from '../modules/draws/commitment.ts';
import { testEnv } from '../test/app.ts';
import { seedDatabase } from './seed.ts';

/** A dump of an empty, migrated database: loading it is much faster than a new initdb. */
let emptyDump: Blob | undefined;

/** An empty, migrated database of this test's own (the shared test database is seeded already). */
async function freshDatabase(): Promise<DatabaseHandle> {
  const handle = await openDatabase({
    databaseUrl: undefined,
    dataDir: '',
    inMemory: true,
    loadDataDir: emptyDump,
  });
  onTestFinished(() => handle.close());
  await handle.migrate();
  return handle;
}

async function counts(db: Database) {
  const total = async (
    table: typeof banks | typeof categories | typeof games | typeof plans | typeof settings,
  ) => {
    const [row] = await db.select({ n: count() }).from(table);
    return row?.n ?? 0;
  };
  return {
    banks: await total(banks),
    categories: await total(categories),
    plans: await total(plans),
    settings: await total(settings),
    games: await total(games),
  };
}

describe('seedDatabase on an empty database', () => {
  const now = new Date('2025-06-01T12:00:00Z');
  let handle: DatabaseHandle;
  let before: Awaited<ReturnType<typeof counts>>;
  let first: Awaited<ReturnType<typeof counts>>;

  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl: undefined, dataDir: '', inMemory: true });
    await handle.migrate();
    emptyDump = await handle.dumpDataDir();
    before = await counts(handle.db);
    await seedDatabase(handle.db, { demoGames: true, now });
    first = await counts(handle.db);
  });
  afterAll(() => handle?.close());

  it('fills it once; seeding again never duplicates anything', async () => {
    expect(before).toEqual({ banks: 0, categories: 0, plans: 0, settings: 0, games: 0 });
    expect(first.settings).toBe(1);
    expect(first.plans).toBe(1);
    expect(first.banks).toBeGreaterThanOrEqual(20);
    expect(first.categories).toBeGreaterThanOrEqual(5);
    expect(first.games).toBeGreaterThanOrEqual(4);

    await seedDatabase(handle.db, { demoGames: true });
    await seedDatabase(handle.db, { demoGames: false });
    expect(await counts(handle.db)).toEqual(first);
  });

  it('seeds the VIP plan with the verified badge and the settings in kobo', async () => {
    const [vip] = await handle.db.select().from(plans);
    expect(vip?.planName).toBe('VIP');
    expect(vip?.amountPerDay).toBeGreaterThan(0n);
    expect(vip?.features.getVerifiedBadge).toBe(true);
    expect(vip?.features.tournamentAccess).toBe(true);
    const [row] = await handle.db.select().from(settings);
    expect(row).toMatchObject({
      id: 1,
      withdrawalTransactionFee: 5000n,
      minimumPaymentAmount: 10000n,
      dailyGameLimit: 5,
    });
  });

  it('creates demo games for every list type, each committed to its secret seed', async () => {
    const rows = await handle.db.select().from(games);
    const ongoing = rows.filter((g) => g.status === 'ONGOING' && !g.isTournament);
    // TRENDING / NEW_CHALLANGES / HIGHEST_PAYOUTS: ongoing games, free and paid.
    expect(ongoing.some((g) => g.entryFee === 0n)).toBe(true);
    expect(ongoing.some((g) => g.entryFee > 0n)).toBe(true);
    // NEW_CHALLANGES also shows upcoming games; they open later.
    const upcoming = rows.filter((g) => g.status === 'UPCOMING');
    expect(upcoming.length).toBeGreaterThan(0);
    for (const game of upcoming) expect(game.startsAt?.getTime()).toBeGreaterThan(now.getTime());
    // TOURNAMENT: tournaments, ongoing and upcoming.
    expect(rows.some((g) => g.isTournament && g.status === 'ONGOING')).toBe(true);
    expect(rows.some((g) => g.isTournament && g.status === 'UPCOMING')).toBe(true);
    // HIGHEST_PAYOUTS needs different rewards to order by.
    expect(new Set(ongoing.map((g) => g.reward)).size).toBeGreaterThan(1);

    for (const game of rows) {
      expect(game.playerCount).toBe(0);
      expect(game.maximumPlayers).toBeGreaterThan(0);
      expect(game.categoryId).not.toBeNull();
      expect(game.seed).toMatch(/^[0-9a-f]{64}$/);
      expect(game.commitment).toBe(commitmentFor(game.seed));
      if (game.endsAt) expect(game.endsAt.getTime()).toBeGreaterThan(now.getTime());
    }
    expect(new Set(rows.map((g) => g.seed)).size).toBe(rows.length);
    expect(new Set(rows.map((g) => g.createdAt.getTime())).size).toBe(rows.length);
  });
});

describe('seeding at start-up', () => {
  async function startOn(handle: DatabaseHandle, seedDemo: string) {
    const app = await buildApp(loadConfig(testEnv({ SEED_DEMO: seedDemo })), { database: handle });
    onTestFinished(() => app.close());
    await app.ready();
    return app;
  }

  it('seeds demo games on a fresh database by default', async () => {
    const handle = await freshDatabase();
    await startOn(handle, '');
    const after = await counts(handle.db);
    expect(after.games).toBeGreaterThanOrEqual(4);
    expect(after.settings).toBe(1);
  });

  it('seeds reference data but no demo games with SEED_DEMO=false', async () => {
    const handle = await freshDatabase();
    const app = await startOn(handle, 'false');
    const after = await counts(handle.db);
    expect(after).toMatchObject({ games: 0, settings: 1, plans: 1 });
    expect(after.banks).toBeGreaterThan(0);
    expect(after.categories).toBeGreaterThan(0);
    const response = await app.inject({ url: '/api/v1/settings' });
    expect(response.json().data.minimumPaymentAmount).toBe(100);
  });
});
