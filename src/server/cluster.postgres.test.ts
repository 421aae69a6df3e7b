import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchGameId, generateDrawDataset } from '../../bench/generate.ts';
import { openDatabase } from './db/client.ts';
import { drawnEntrySql, wonEntrySql } from './db/outcome.ts';
import { gameEntries, games, jobs } from './db/schema.ts';
import { hashPassword } from './modules/auth/passwords.ts';
import { queueDraw } from './modules/draws/queue.ts';
import { checkLedger } from './modules/wallet/ledger-check.ts';
import { buildTestApp } from './test/app.ts';
import { testDatabasePerFile } from './test/database.ts';
import { bearerFor, createAdmin, createGame, createPlayer } from './test/factories.ts';
import { type Instance, startBalancer, startInstance } from './test/instances.ts';
import { createScratchDatabase, requireTestDatabaseUrl } from './test/scratch-database.ts';

// Several real server processes on one PostgreSQL, as behind a load balancer: what one of
// them learns (a suspension, a password change, a new fee) every other must honour at once,
// and a draw left half-done by a dead one is finished by another.
const database = testDatabasePerFile();
const databaseUrl = requireTestDatabaseUrl;

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

  it("stops another device's token on every instance within 100 ms of a password change", async () => {
    const app = await buildTestApp(database());
    const password = 'Old-password-123';
    const player = await createPlayer(app.db, {
      overrides: { passwordHash: await hashPassword(password) },
    });
    const changingHeaders = await bearerFor(app, player);
    const otherDeviceHeaders = await bearerFor(app, player);
    for (const instance of instances)
      for (const headers of [changingHeaders, otherDeviceHeaders])
        expect((await fetch(`${instance.url}/api/v1/user`, { headers })).status).toBe(200);

    const changed = await fetch(`${instances[0]?.url}/api/v1/user`, {
      method: 'PUT',
      headers: { ...changingHeaders, 'content-type': 'application/json' },
      body: JSON.stringify({
        currentPassword: password,
        password: 'New-password-456',
        confirmPassword: 'New-password-456',
      }),
    });
    const confirmedAt = Date.now();
    expect(changed.status, await changed.clone().text()).toBe(200);

    const delays = await refusalDelays(instances.slice(1), otherDeviceHeaders, confirmedAt);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(100);
    // The session that changed the password stays signed in everywhere.
    for (const instance of instances)
      expect(
        (await fetch(`${instance.url}/api/v1/user`, { headers: changingHeaders })).status,
      ).toBe(200);
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

describe('rate limits across instances', () => {
  it('gives a client one per-minute budget however the balancer spreads its requests', async () => {
    const limit = 40;
    const pair = await Promise.all(
      [0, 1].map(() =>
        startInstance(databaseUrl(), {
          JOB_POLL_MS: '0',
          RATE_LIMIT_MAX: String(limit),
          TRUST_PROXY: '127.0.0.1',
        }),
      ),
    );
    try {
      // A client of its own, as the balancer both instances trust (on 127.0.0.1) reports it.
      const headers = { 'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.7` };
      let allowed = 0;
      for (let request = 0; request < 2 * limit; request += 1) {
        const instance = pair[request % 2] as Instance;
        const response = await fetch(`${instance.url}/api/v1/category`, { headers });
        if (response.status === 200) allowed += 1;
        else expect(response.status).toBe(429);
        // About the pace of a busy client.
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Counted per instance, all 80 would pass; each request passes only with a unit of the
      // client's budget claimed in the shared database, so exactly the budget does.
      expect(allowed).toBe(limit);
    } finally {
      await Promise.all(pair.map((instance) => instance.kill()));
    }
  }, 120_000);
});

describe('a draw whose instance dies', () => {
  it('is finished by another instance within 10 s of the kill, exactly once', async () => {
    // A database of its own: these workers would otherwise run other test files' jobs.
    const url = await createScratchDatabase('draw_kill');
    const workers = await Promise.all(
      [0, 1].map(() => startInstance(url, { JOB_POLL_MS: '10000' })),
    );
    const handle = await openDatabase({ databaseUrl: url, dataDir: '' });
    const { db } = handle;
    const prefix = `k${Math.random().toString(36).slice(2, 8)}`;
    const entries = 20_000;
    await generateDrawDataset(db, { entries, prefix, rewardKobo: 10_000n });
    const gameId = benchGameId(prefix, 0);
    try {
      // Past both workers' first tick: only the notification of the new job can wake them now
      // (their fallback tick is 10 s away).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const queuedAt = Date.now();
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
        if (!holder) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(Date.now() - queuedAt, 'the job waited for a polling tick').toBeLessThan(2_000);
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

      // Undrawn as every reader tells it: a loser's entry of the COMPLETED game reads as drawn.
      const winners = await db.execute(sql`
        SELECT count(*) FILTER (WHERE ${wonEntrySql('e')})::int AS winners,
          count(*) FILTER (WHERE NOT ${drawnEntrySql('e')})::int AS undrawn
        FROM game_entries e WHERE e.game_id = ${gameId}`);
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
      expect((await checkLedger(db, { sandbox: true })).ok).toBe(true);
    } finally {
      await Promise.all(workers.map((worker) => worker.kill()));
      await handle.close();
    }
  }, 120_000);
});

describe('a rolling restart behind the balancer', () => {
  it('serves steady plays and reads without one failed request, each instance draining before it exits', async () => {
    const app = await buildTestApp(database());
    // Longer than the balancer takes to see two failed readiness checks (as deploy/'s HAProxy).
    const env = { JOB_POLL_MS: '0', SHUTDOWN_DELAY_MS: '1500' };
    const balancer = await startBalancer();
    const running = await Promise.all([0, 1, 2].map(() => startInstance(databaseUrl(), env)));
    for (const instance of running) balancer.add(instance);
    const game = await createGame(app.db, { entryFee: 100n, maximumPlayers: 10_000 });
    const players = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const player = await createPlayer(app.db, { kobo: 1_000_000n });
        return bearerFor(app, player);
      }),
    );
    const failures: string[] = [];
    let requests = 0;
    let stopping = false;

    // Each player reads the list and their account, and answers the game once.
    const load = players.map(async (headers) => {
      let played = false;
      while (!stopping) {
        const calls: Array<Promise<Response>> = [
          fetch(`${balancer.url}/api/v1/game?gameType=NEW_CHALLANGES`, { headers }),
          fetch(`${balancer.url}/api/v1/user`, { headers }),
        ];
        if (!played)
          calls.push(
            fetch(`${balancer.url}/api/v1/game/play`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify({ gameID: game.id, submittedAnswer: 'steady', entryFee: 1 }),
            }),
          );
        const answers = await Promise.allSettled(calls);
        for (const answer of answers) {
          requests += 1;
          if (answer.status === 'rejected') failures.push(String(answer.reason));
          else if (answer.value.status >= 300)
            failures.push(`${answer.value.status} ${await answer.value.text()}`);
          else await answer.value.arrayBuffer();
        }
        played = true;
      }
    });

    try {
      for (let index = 0; index < running.length; index += 1) {
        const old = running[index] as Instance;
        const replacement = await startInstance(databaseUrl(), env);
        balancer.add(replacement);
        expect(await old.stop()).toBe(0);
        balancer.remove(old);
        running[index] = replacement;
      }
    } finally {
      stopping = true;
      await Promise.all(load);
      await balancer.close();
      await Promise.all(running.map((instance) => instance.kill()));
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(500);
    const [{ n } = { n: 0 }] = await app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(gameEntries)
      .where(eq(gameEntries.gameId, game.id));
    expect(n).toBe(players.length);
    await app.db.update(games).set({ status: 'CANCELLED' }).where(eq(games.id, game.id));
  }, 180_000);
});
