import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { benchGameId, generateDrawDataset } from '../../bench/generate.ts';
import { gameEntries, games, jobs } from './db/schema.ts';
import { hashPassword } from './modules/auth/passwords.ts';
import { queueDraw } from './modules/games/service.ts';
import { createGame } from './modules/games/test-fixtures.ts';
import { checkLedger } from './modules/wallet/ledger-check.ts';
import { buildTestApp } from './test/app.ts';
import { testDatabasePerFile } from './test/database.ts';
import { bearerFor } from './test/factories.ts';
import { createAdmin, createPlayer } from './test/fake-money.ts';
import { type Instance, startInstance } from './test/instances.ts';

// Several real server processes on one PostgreSQL, as behind a load balancer: what one of
// them learns (a suspension, a password change, a new fee) every other must honour at once,
// and a draw left half-done by a dead one is finished by another.
const database = testDatabasePerFile();
const databaseUrl = (): string => {
  const url = inject('testDatabaseUrl');
  if (!url) throw new Error('cluster tests need TEST_DATABASE_URL');
  return url;
};

/** Whether each instance started refusing the token, and how long after `since` it did. */
async function refusalDelays(
  instances: readonly Instance[],
  headers: Record<string, string>,
  since: number,
): Promise<number[]> {
  return Promise.all(
    instances.map(async (instance) => {
      for (;;) {
        const response = await fetch(`${instance.url}/api/v1/user`, { headers });
        if (response.status === 401) return Date.now() - since;
        if (Date.now() - since > 5_000) return Number.POSITIVE_INFINITY;
      }
    }),
  );
}

describe('three instances on one database', () => {
  let instances: Instance[] = [];

  beforeAll(async () => {
    instances = await Promise.all(
      [0, 1, 2].map(() => startInstance(databaseUrl(), { JOB_POLL_MS: '0' })),
    );
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill()));
  });

  it('refuses a suspended player on every instance within 100 ms, and no paid play gets through', async () => {
    const app = await buildTestApp(database());
    const operator = await createAdmin(app.db);
    const player = await createPlayer(app.db, { kobo: 1_000_000n });
    const game = await createGame(app.db, { entryFee: 1_000n, maximumPlayers: 1_000 });
    const playerHeaders = await bearerFor(app, player);
    for (const instance of instances) {
      const warm = await fetch(`${instance.url}/api/v1/user`, { headers: playerHeaders });
      expect(warm.status).toBe(200);
    }

    // Paid plays keep going out to the other instances while the suspension lands.
    let playing = true;
    const plays: Array<{ sentAt: number; status: number }> = [];
    const player2 = instances.slice(1).map(async (instance) => {
      while (playing) {
        const sentAt = Date.now();
        const response = await fetch(`${instance.url}/api/v1/game/play`, {
          method: 'POST',
          headers: { ...playerHeaders, 'content-type': 'application/json' },
          body: JSON.stringify({ gameID: game.id, submittedAnswer: 'again and again' }),
        });
        plays.push({ sentAt, status: response.status });
      }
    });

    const suspended = await fetch(`${instances[0]?.url}/api/v1/admin/users/${player.id}/suspend`, {
      method: 'POST',
      headers: { ...(await bearerFor(app, operator)), 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'chargeback fraud' }),
    });
    const confirmedAt = Date.now();
    expect(suspended.status).toBe(200);

    const delays = await refusalDelays(instances.slice(1), playerHeaders, confirmedAt);
    playing = false;
    await Promise.all(player2);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(100);
    // At most the one play that was already being answered; none begun after the confirmation.
    expect(plays.filter((p) => p.sentAt > confirmedAt && p.status === 201)).toEqual([]);
    const entries = await app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(gameEntries)
      .where(eq(gameEntries.userId, player.id));
    expect(entries[0]?.n).toBeLessThanOrEqual(1);
  });

  it('stops an old token on every instance within 100 ms of a password change', async () => {
    const app = await buildTestApp(database());
    const password = 'Old-password-123';
    const player = await createPlayer(app.db, {
      overrides: { passwordHash: await hashPassword(password) },
    });
    const oldHeaders = await bearerFor(app, player);
    for (const instance of instances)
      expect((await fetch(`${instance.url}/api/v1/user`, { headers: oldHeaders })).status).toBe(
        200,
      );

    const changed = await fetch(`${instances[0]?.url}/api/v1/user`, {
      method: 'PUT',
      headers: { ...oldHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({
        currentPassword: password,
        password: 'New-password-456',
        confirmPassword: 'New-password-456',
      }),
    });
    const confirmedAt = Date.now();
    expect(changed.status, await changed.clone().text()).toBe(200);

    const delays = await refusalDelays(instances.slice(1), oldHeaders, confirmedAt);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(100);
  });

  it('never charges a fee the player was not shown, and lists the new fee everywhere within 100 ms', async () => {
    const app = await buildTestApp(database());
    const operator = await createAdmin(app.db);
    const player = await createPlayer(app.db, { kobo: 1_000_000n });
    const game = await createGame(app.db, { entryFee: 10_000n, maximumPlayers: 50 });
    const headers = await bearerFor(app, player);
    const [seller, buyer] = [instances[0], instances[1]] as [Instance, Instance];
    const feeOn = async (instance: Instance) => {
      const response = await fetch(`${instance.url}/api/v1/game/${game.id}`, { headers });
      return ((await response.json()) as { data: { entryFee: number } }).data.entryFee;
    };
    expect(await feeOn(buyer)).toBe(100);

    const edited = await fetch(`${seller.url}/api/v1/admin/games/${game.id}`, {
      method: 'PUT',
      headers: { ...(await bearerFor(app, operator)), 'content-type': 'application/json' },
      body: JSON.stringify({
        title: game.title,
        entryFee: 250,
        reward: 1_000,
        maximumPlayers: 50,
      }),
    });
    const editedAt = Date.now();
    expect(edited.status, await edited.clone().text()).toBe(200);

    const play = await fetch(`${buyer.url}/api/v1/game/play`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ gameID: game.id, submittedAnswer: 'the old price', entryFee: 100 }),
    });
    expect(play.status).toBe(409);
    expect(((await play.json()) as { data: { entryFee: number } }).data.entryFee).toBe(250);

    const list = async () => {
      const response = await fetch(`${buyer.url}/api/v1/game?gameType=NEW_CHALLANGES`, {
        headers,
      });
      const body = (await response.json()) as {
        data: { games: Array<{ id: string; entryFee: number }> };
      };
      return body.data.games.find((listed) => listed.id === game.id)?.entryFee;
    };
    while ((await list()) !== 250 && Date.now() - editedAt < 1_000) {}
    expect(Date.now() - editedAt).toBeLessThanOrEqual(100);
    await app.db.update(games).set({ status: 'CANCELLED' }).where(eq(games.id, game.id));
  });
});

describe('a draw whose instance dies', () => {
  it('is finished by another instance within 10 s of the kill, exactly once', async () => {
    const { db } = database();
    const prefix = `k${Math.random().toString(36).slice(2, 8)}`;
    const entries = 20_000;
    await generateDrawDataset(db, { entries, prefix, rewardKobo: 10_000n });
    const gameId = benchGameId(prefix, 0);
    const workers = await Promise.all(
      [0, 1].map(() => startInstance(databaseUrl(), { JOB_POLL_MS: '10000' })),
    );
    try {
      await queueDraw(db, gameId);
      // Whichever worker the notification woke first holds the lock: that one dies.
      let holder: Instance | undefined;
      while (!holder) {
        const [job] = await db
          .select()
          .from(jobs)
          .where(eq(jobs.key, `draw:${gameId}`));
        holder = workers.find((worker) => job?.lockedBy?.endsWith(`:${worker.pid}`));
        expect(job?.doneAt ?? null).toBeNull();
      }
      await holder.kill();
      const killedAt = Date.now();
      const [afterKill] = await db
        .select()
        .from(jobs)
        .where(eq(jobs.key, `draw:${gameId}`));
      expect(afterKill?.doneAt ?? null, 'the draw finished before the kill').toBeNull();

      let done: typeof jobs.$inferSelect | undefined;
      while (!done?.doneAt && Date.now() - killedAt < 15_000) {
        [done] = await db
          .select()
          .from(jobs)
          .where(eq(jobs.key, `draw:${gameId}`));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(done?.doneAt, 'the draw was never finished').toBeTruthy();
      expect(Date.now() - killedAt).toBeLessThanOrEqual(10_000);
      expect(done?.attempts).toBe(2);

      const winners = await db.execute(sql`
        SELECT count(*) FILTER (WHERE is_winner)::int AS winners,
          count(*) FILTER (WHERE is_winner IS NULL)::int AS undrawn
        FROM game_entries WHERE game_id = ${gameId}`);
      expect((winners as unknown as { rows: unknown[] }).rows[0]).toEqual({
        winners: entries / 5,
        undrawn: 0,
      });
      const prizes = await db.execute(sql`
        SELECT count(DISTINCT t.id)::int AS transactions, count(e.id)::int AS credits
        FROM ledger_transactions t
        JOIN ledger_entries e ON e.transaction_id = t.id AND e.user_id IS NOT NULL
        WHERE t.reference = ${`prizes:${gameId}`}`);
      expect((prizes as unknown as { rows: unknown[] }).rows[0]).toEqual({
        transactions: 1,
        credits: entries / 5,
      });
      // Other test files' sandbox top-ups share this database.
      expect((await checkLedger(db, { sandbox: true })).ok).toBe(true);
    } finally {
      await Promise.all(workers.map((worker) => worker.kill()));
    }
  }, 120_000);
});
