import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { PUSH_MESSAGES } from '../../../shared/schemas/push.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import {
  gameEntries,
  games,
  jobs,
  notificationDeliveries,
  pushSubscriptions,
  users,
} from '../../db/schema.ts';
import { buildTestApp, testEnv } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createAdmin,
  createPlayer,
  createUser,
  type UserRow,
} from '../../test/factories.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import {
  type FakePushService,
  type FakeSubscription,
  startFakePushService,
} from '../../test/fake-push-service.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';
import { hashPassword } from '../auth/passwords.ts';
import { sealEntries } from '../draws/seal.ts';
import { drawGame } from '../draws/service.ts';
import { createGame, createPlan } from '../games/test-fixtures.ts';
import { PUSH_JOB, PUSH_PAGE_SIZE } from './fan-out.ts';

const database = testDatabasePerFile();
let pushService: FakePushService;
let paystack: FakePaystack;
let smtp: TestSmtpServer;
beforeAll(async () => {
  [pushService, paystack, smtp] = await Promise.all([
    startFakePushService(),
    startFakePaystack(),
    startSmtpServer(),
  ]);
});
afterAll(async () => {
  expect(pushService.rejected).toEqual([]);
  await Promise.all([pushService.close(), paystack.close(), smtp.close()]);
});

const FIRST_PAYOUT_NOTE = 'First payout to this account: name matches the player';

async function setup(env: Record<string, string> = {}) {
  return buildTestApp(database(), { ...paystack.env, SMTP_URL: smtp.url, ...env });
}

async function subscribe(
  app: FastifyInstance,
  user: UserRow,
  subscription = pushService.subscribe(),
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/notification/push/subscription',
    headers: await bearerFor(app, user),
    payload: subscription.json,
  });
  expect(response.statusCode, response.body).toBe(200);
  return subscription;
}

async function subscriptionsOf(app: FastifyInstance, userId: string) {
  return app.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}

/** A player's withdrawal of ₦500, approved by an operator and paid through (fake) Paystack. */
async function paidWithdrawal(app: FastifyInstance, player: UserRow) {
  const requested = await app.inject({
    method: 'POST',
    url: '/api/v1/withdrawal',
    headers: await bearerFor(app, player),
    payload: { amount: 500 },
  });
  expect(requested.statusCode, requested.body).toBe(201);
  const id = requested.json().data.id as string;
  const admin = await createAdmin(app.db);
  const approved = await app.inject({
    method: 'POST',
    url: `/api/v1/admin/withdrawals/${id}/approve`,
    headers: await bearerFor(app, admin),
    payload: { reviewNote: FIRST_PAYOUT_NOTE },
  });
  expect(approved.json().data.internalStatus).toBe('SUCCESSFUL');
  return id;
}

describe('push subscription routes', () => {
  it('gives the VAPID public key: the configured one, else one generated once', async () => {
    const keys = webpush.generateVAPIDKeys();
    const configured = await setup({
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
    });
    const user = await createUser(configured.db);
    const answer = await configured.inject({
      url: '/api/v1/notification/push/key',
      headers: await bearerFor(configured, user),
    });
    expect(answer.json()).toEqual({ data: { publicKey: keys.publicKey } });

    const generated = await setup();
    const first = (
      await generated.inject({
        url: '/api/v1/notification/push/key',
        headers: await bearerFor(generated, await createUser(generated.db)),
      })
    ).json().data;
    expect(first.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(first.publicKey).not.toBe(keys.publicKey);
    expect(generated.secrets.vapid.publicKey).toBe(first.publicKey);
  });

  it('keeps the generated key pair in DATA_DIR across restarts', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pluckers-vapid-'));
    try {
      const first = await setup({ DATA_DIR: dataDir });
      const key = first.secrets.vapid;
      await first.close();
      const second = await setup({ DATA_DIR: dataDir });
      expect(second.secrets.vapid).toEqual(key);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses half a VAPID configuration or a malformed one at start-up, naming the variable', () => {
    const { publicKey, privateKey } = webpush.generateVAPIDKeys();
    const load = (env: Record<string, string>) => () => loadConfig(testEnv(env));
    expect(load({ VAPID_PUBLIC_KEY: publicKey })).toThrow(
      new ConfigError(
        'Invalid VAPID_PRIVATE_KEY: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together, or neither',
      ),
    );
    expect(load({ VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: privateKey })).toThrow(
      /^Invalid VAPID_PUBLIC_KEY: /,
    );
    expect(load({ VAPID_SUBJECT: 'someone@example.ng' })).toThrow(/^Invalid VAPID_SUBJECT: /);
    expect(loadConfig(testEnv({ MAIL_FROM: 'Pluckers <hello@pluckers.ng>' })).vapidSubject).toBe(
      'mailto:hello@pluckers.ng',
    );
    expect(
      loadConfig(testEnv({ VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey })).vapid,
    ).toEqual({ publicKey, privateKey });
  });

  it('saves a subscription once per endpoint, moves it to whoever subscribes it, removes only your own', async () => {
    const app = await setup();
    const [ada, bola] = [await createUser(app.db), await createUser(app.db)];
    const phone = await subscribe(app, ada);
    await subscribe(app, ada, phone);
    expect(await subscriptionsOf(app, ada.id)).toEqual([
      expect.objectContaining({ endpoint: phone.endpoint, p256dh: phone.json.keys.p256dh }),
    ]);

    const notMine = await app.inject({
      method: 'DELETE',
      url: '/api/v1/notification/push/subscription',
      headers: await bearerFor(app, bola),
      payload: { endpoint: phone.endpoint },
    });
    expect(notMine.json()).toEqual({ message: PUSH_MESSAGES.unsubscribed });
    expect(await subscriptionsOf(app, ada.id)).toHaveLength(1);

    // Bola signs in on Ada's phone: its pushes are now Bola's.
    await subscribe(app, bola, phone);
    expect(await subscriptionsOf(app, ada.id)).toEqual([]);
    expect(await subscriptionsOf(app, bola.id)).toHaveLength(1);
    const removed = await app.inject({
      method: 'DELETE',
      url: '/api/v1/notification/push/subscription',
      headers: await bearerFor(app, bola),
      payload: { endpoint: phone.endpoint },
    });
    expect(removed.statusCode).toBe(200);
    expect(await subscriptionsOf(app, bola.id)).toEqual([]);
  });

  it("deleting the account removes its devices' subscriptions", async () => {
    const app = await setup();
    const password = 'a-long-enough-password-1';
    const user = await createUser(app.db, { passwordHash: await hashPassword(password) });
    await subscribe(app, user);
    const deleted = await app.inject({
      method: 'DELETE',
      url: '/api/v1/user',
      headers: await bearerFor(app, user),
      payload: { password },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await subscriptionsOf(app, user.id)).toEqual([]);
  });

  it('refuses bad subscriptions with a clear 400 and saves nothing; 401 without a token', async () => {
    const app = await setup();
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    const good = pushService.subscribe().json;
    const cases: Array<[unknown, string]> = [
      [{ ...good, endpoint: 'not a url' }, PUSH_MESSAGES.badEndpoint],
      [{ ...good, endpoint: 'ftp://push.example.test/x' }, PUSH_MESSAGES.badEndpoint],
      [{ ...good, keys: { ...good.keys, p256dh: 'short' } }, PUSH_MESSAGES.badKeys],
      [{ ...good, keys: { ...good.keys, auth: 'not base64url!!!!!!!!' } }, PUSH_MESSAGES.badKeys],
    ];
    for (const [payload, message] of cases) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/notification/push/subscription',
        headers,
        payload: payload as object,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/v1/notification/push/subscription',
      payload: good,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await subscriptionsOf(app, user.id)).toEqual([]);
  });

  it('keeps per-kind preferences: all on until changed, then as saved', async () => {
    const app = await setup();
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    const read = async () =>
      (await app.inject({ url: '/api/v1/notification/preferences', headers })).json();
    expect(await read()).toEqual({
      data: {
        results: true,
        withdrawals: true,
        tournaments: true,
        planRenewal: true,
        emails: true,
      },
    });
    const chosen = {
      results: true,
      withdrawals: false,
      tournaments: false,
      planRenewal: true,
      emails: false,
    };
    const saved = await app.inject({
      method: 'PUT',
      url: '/api/v1/notification/preferences',
      headers,
      payload: chosen,
    });
    expect(saved.json()).toEqual({ message: PUSH_MESSAGES.saved, data: chosen });
    expect(await read()).toEqual({ data: chosen });
    const partial = await app.inject({
      method: 'PUT',
      url: '/api/v1/notification/preferences',
      headers,
      payload: { results: false },
    });
    expect(partial.statusCode).toBe(400);
    expect(await read()).toEqual({ data: chosen });
  });
});

describe('sending pushes', () => {
  it('a paid withdrawal reaches each device once, encrypted, opening the wallet; and an e-mail', async () => {
    const app = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const [phone, laptop] = [await subscribe(app, player), await subscribe(app, player)];
    const id = await paidWithdrawal(app, player);
    expect(pushService.receivedBy(phone.endpoint)).toEqual([]);

    await app.jobs.runDue();
    const expected = {
      title: 'Withdrawal paid',
      body: expect.stringMatching(/^₦500 has been sent to /),
      url: '/wallet',
      tag: `withdrawal:${id}`,
    };
    for (const device of [phone, laptop]) {
      expect(pushService.receivedBy(device.endpoint)).toEqual([
        expect.objectContaining({
          payload: expected,
          vapidKey: app.secrets.vapid.publicKey,
          subject: 'mailto:no-reply@localhost',
          ttl: 86_400,
          urgency: 'high',
        }),
      ]);
    }
    const mail = await smtp.waitForMail(player.email);
    expect(mail.subject).toBe('Your withdrawal is paid');
    expect(mail.text).toContain('/wallet');

    // The job again (a retry, another worker): nothing twice.
    await app.db
      .update(jobs)
      .set({ doneAt: null })
      .where(eq(jobs.key, `push:withdrawal-paid:${id}:start`));
    await app.jobs.runDue();
    expect(pushService.receivedBy(phone.endpoint)).toHaveLength(1);
    expect(smtp.mailTo(player.email)).toHaveLength(1);
  });

  it('sends nothing of a kind the player turned off, and no e-mail when e-mails are off', async () => {
    const app = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const phone = await subscribe(app, player);
    await app.inject({
      method: 'PUT',
      url: '/api/v1/notification/preferences',
      headers: await bearerFor(app, player),
      payload: {
        results: true,
        withdrawals: false,
        tournaments: true,
        planRenewal: true,
        emails: false,
      },
    });
    await paidWithdrawal(app, player);
    await app.jobs.runDue();
    expect(pushService.receivedBy(phone.endpoint)).toEqual([]);
    expect(smtp.mailTo(player.email)).toEqual([]);
  });

  it('a 410 from the push service removes that subscription; the others still get theirs', async () => {
    const app = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const [expired, current] = [await subscribe(app, player), await subscribe(app, player)];
    pushService.answer(expired.endpoint, 410);
    await paidWithdrawal(app, player);
    await app.jobs.runDue();
    expect((await subscriptionsOf(app, player.id)).map((s) => s.endpoint)).toEqual([
      current.endpoint,
    ]);
    expect(pushService.receivedBy(current.endpoint)).toHaveLength(1);
    const [job] = await app.db.select().from(jobs).where(eq(jobs.kind, PUSH_JOB));
    expect(job?.lastError).toBeNull();
  });

  it('a 500 keeps the delivery to retry: the job runs again later and sends it once', async () => {
    const app = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const phone = await subscribe(app, player);
    pushService.answer(phone.endpoint, 500);
    const id = await paidWithdrawal(app, player);
    await app.jobs.runDue();
    const key = `push:withdrawal-paid:${id}:start`;
    const [failed] = await app.db.select().from(jobs).where(eq(jobs.key, key));
    expect(failed?.doneAt).toBeNull();
    expect(failed?.lastError).toMatch(/1 notifications to retry/);
    expect(await subscriptionsOf(app, player.id)).toHaveLength(1);

    pushService.answer(phone.endpoint, 0);
    await app.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.key, key));
    await app.jobs.runDue();
    expect(pushService.receivedBy(phone.endpoint)).toHaveLength(1);
  });
});

describe('plan renewals', () => {
  it('a renewal and a lapse each reach the player, opening Pricing', async () => {
    const app = await setup();
    const plan = await createPlan(app.db, {});
    const [renewing, lapsing] = [
      await createPlayer(app.db, { kobo: 100_000n }),
      await createPlayer(app.db, { kobo: 0n }),
    ];
    const devices = [await subscribe(app, renewing), await subscribe(app, lapsing)];
    await app.db
      .update(users)
      .set({ planId: plan.id, planExpiresAt: new Date(Date.now() - 60_000) })
      .where(inArray(users.id, [renewing.id, lapsing.id]));
    await app.jobs.runDue();
    expect(pushService.receivedBy(devices[0]?.endpoint ?? '')).toEqual([
      expect.objectContaining({
        payload: expect.objectContaining({ title: `${plan.planName} renewed`, url: '/Pricing' }),
      }),
    ]);
    expect(pushService.receivedBy(devices[1]?.endpoint ?? '')).toEqual([
      expect.objectContaining({
        payload: expect.objectContaining({ title: 'Your plan has ended', url: '/Pricing' }),
      }),
    ]);
  });
});

describe('the draw of a large game', () => {
  it(`tells each of 2,000 players once, in pages of ${PUSH_PAGE_SIZE}; re-running sends nothing twice`, async () => {
    const app = await setup({ SMTP_URL: '' });
    const players = 2_000;
    const game = await createGame(app.db, { reward: 1_000n, maximumPlayers: players });
    const people = await app.db
      .insert(users)
      .values(
        Array.from({ length: players }, (_, i) => ({
          handle: `push_${game.id.slice(0, 8)}_${i}`,
          fullname: 'Push Player',
          email: `push-${game.id}-${i}@example.test`,
        })),
      )
      .returning({ id: users.id });
    const devices = new Map<string, FakeSubscription>();
    for (const person of people) devices.set(person.id, pushService.subscribe());
    await app.db.insert(pushSubscriptions).values(
      people.map((person) => {
        const device = devices.get(person.id) as FakeSubscription;
        return { userId: person.id, endpoint: device.endpoint, ...device.json.keys };
      }),
    );
    await app.db
      .insert(gameEntries)
      .values(
        people.map((p) => ({ gameId: game.id, userId: p.id, answer: 'crowd', amountPaid: 0n })),
      );
    await app.db
      .update(games)
      .set({ status: 'CLOSED', playerCount: players, closedAt: new Date() })
      .where(eq(games.id, game.id));
    await sealEntries(app.db, game.id);
    expect(await drawGame(app.db, app.beacon, game.id, new Date())).toBe('completed');
    // Nothing is sent inside the draw's transaction: only a job is queued.
    expect(
      pushService.received.filter((p) => devices.get(people[0]?.id ?? '')?.endpoint === p.endpoint),
    ).toEqual([]);

    const started = performance.now();
    await app.jobs.runDue();
    const seconds = (performance.now() - started) / 1000;

    const winners = new Set(
      (
        await app.db
          .select({ userId: gameEntries.userId })
          .from(gameEntries)
          .where(and(eq(gameEntries.gameId, game.id), eq(gameEntries.isWinner, true)))
      ).map((row) => row.userId),
    );
    expect(winners.size).toBe(400);
    const url = `/GameDetails?id=${game.id}`;
    for (const person of people) {
      const got = pushService.receivedBy(devices.get(person.id)?.endpoint ?? '');
      expect(got).toHaveLength(1);
      expect(got[0]?.payload).toMatchObject({
        title: winners.has(person.id) ? 'You won!' : 'Results are in',
        url,
      });
    }
    const pages = await app.db
      .select({ key: jobs.key, doneAt: jobs.doneAt })
      .from(jobs)
      .where(and(eq(jobs.kind, PUSH_JOB), sql`${jobs.key} LIKE ${`push:results:${game.id}:%`}`));
    expect(pages).toHaveLength(players / PUSH_PAGE_SIZE);
    expect(pages.every((page) => page.doneAt !== null)).toBe(true);
    console.info(
      `push fan-out: ${players} devices in ${pages.length} pages, ${seconds.toFixed(1)} s`,
    );

    // Every page again (a worker that died after sending, a retry): nothing twice.
    await app.db
      .update(jobs)
      .set({ doneAt: null })
      .where(
        inArray(
          jobs.key,
          pages.map((page) => page.key),
        ),
      );
    await app.jobs.runDue();
    const endpoints = new Set([...devices.values()].map((d) => d.endpoint));
    expect(pushService.received.filter((p) => endpoints.has(p.endpoint))).toHaveLength(players);
    const [records] = await app.db
      .select({ count: sql<number>`count(*)::int` })
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.eventKey, `results:${game.id}`));
    expect(records?.count).toBe(players + winners.size);
  }, 120_000);
});
