import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import webpush from 'web-push';
import { PUSH_MESSAGES } from '../../../shared/schemas/push.ts';
import { ConfigError, DEFAULT_PUSH_SERVICE_HOSTS, loadConfig } from '../../config.ts';
import {
  gameEntries,
  games,
  gameWinners,
  jobs,
  notificationDeliveries,
  pushSubscriptions,
  users,
  withdrawals,
} from '../../db/schema.ts';
import { buildTestApp, testAppPerFile, testEnv } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createAdmin,
  createGame,
  createPlan,
  createPlayer,
  createPlayers,
  createUser,
  type UserRow,
} from '../../test/factories.ts';
import { type FakePaystack, startFakePaystack } from '../../test/fake-paystack.ts';
import {
  type FakePushService,
  type FakeSubscription,
  startFakePushService,
} from '../../test/fake-push-service.ts';
import { testPasswordHash } from '../../test/passwords.ts';
import { startSmtpServer, type TestSmtpServer } from '../../test/smtp.ts';
import { sealEntries } from '../draws/seal.ts';
import { drawGame } from '../draws/service.ts';
import { PUSH_JOB, PUSH_PAGE_SIZE, queuePush } from './fan-out.ts';
import { sendPush } from './push.ts';
import { pushEndpoints, type Resolve } from './push-endpoint.ts';

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

/** The push service stand-in listens on 127.0.0.1: only the explicit test setting reaches it. */
const fileEnv = () => ({ ...paystack.env, SMTP_URL: smtp.url, PUSH_ALLOW_LOCAL_ENDPOINTS: 'true' });
const sharedApp = testAppPerFile(database, fileEnv);

/**
 * The file's app, or one of the test's own for an environment of its own. Tests on the file's
 * app make their own players and devices, so they pass in any order.
 */
async function setup(env?: Record<string, string>) {
  if (!env) return sharedApp();
  return buildTestApp(database(), { ...fileEnv(), ...env });
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

/** A TCP listener on 127.0.0.1 counting who connects: where a refused endpoint would lead. */
async function startTarget() {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

/** A plan notice for one player: the smallest event that pushes to every device of theirs. */
async function notifyPlan(app: FastifyInstance, userId: string) {
  const at = new Date().toISOString();
  await queuePush(app.db, { type: 'plan', userId, at, title: 'Plan renewed', body: 'Renewed.' });
  await app.jobs.runDue();
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
    const user = await createUser(app.db, { passwordHash: await testPasswordHash(password) });
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
    // The receipt's short reference, not the long id.
    const [paid] = await app.db
      .select({ shortReference: withdrawals.shortReference })
      .from(withdrawals)
      .where(eq(withdrawals.id, id));
    expect(paid?.shortReference).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(mail.text).toContain(`Reference: ${paid?.shortReference}`);
    expect(mail.text).not.toContain(id);

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

  it('a 404 or 410 from the push service removes that subscription; the others still get theirs', async () => {
    const app = await setup();
    const player = await createPlayer(app.db, { kobo: 100_000n });
    const [expired, unknown, current] = [
      await subscribe(app, player),
      await subscribe(app, player),
      await subscribe(app, player),
    ];
    pushService.answer(expired.endpoint, 410);
    pushService.answer(unknown.endpoint, 404);
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
    const people = await createPlayers(app.db, players);
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
          .select({ userId: gameWinners.userId })
          .from(gameWinners)
          .where(eq(gameWinners.gameId, game.id))
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

describe('where pushes may go', () => {
  const ISSUE_ENDPOINTS = [
    'https://127.0.0.1:4109/',
    'https://localhost/',
    'https://169.254.169.254/latest/meta-data/',
    'http://127.0.0.1:5432/',
    'http://127.0.0.1:6379/',
    'https://2130706433/',
    'http://2130706433/',
    'https://0x7f.0.0.1/',
    'https://0177.0.0.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://10.0.0.5/',
  ];
  const OFF_THE_LIST = [
    'http://fcm.googleapis.com/fcm/send/abc',
    'https://fcm.googleapis.com:8443/fcm/send/abc',
    'https://user:secret@fcm.googleapis.com/fcm/send/abc',
    'https://fcm.googleapis.com.attacker.test/fcm/send/abc',
    'https://evilpush.services.mozilla.com/wpush/v2/abc',
    'https://push.apple.com.attacker.test/abc',
    'https://attacker.test/push/abc',
  ];

  it('refuses any endpoint off a known https push service with a clear 400, saving nothing, in tests and in production', async () => {
    for (const nodeEnv of ['test', 'production']) {
      const env = { PUSH_ALLOW_LOCAL_ENDPOINTS: '', NODE_ENV: nodeEnv };
      const app = await setup(env);
      const user = await createUser(app.db);
      const headers = await bearerFor(app, user);
      const { keys } = pushService.subscribe().json;
      for (const endpoint of [
        ...ISSUE_ENDPOINTS,
        ...OFF_THE_LIST,
        // The local stand-in, without the test setting.
        pushService.subscribe().endpoint,
      ]) {
        const response = await app.inject({
          method: 'POST',
          url: '/api/v1/notification/push/subscription',
          headers,
          payload: { endpoint, expirationTime: null, keys },
        });
        expect(response.statusCode, `${nodeEnv} ${endpoint}`).toBe(400);
        expect(response.json().message).toBe(PUSH_MESSAGES.badEndpoint);
      }
      expect(await subscriptionsOf(app, user.id)).toEqual([]);
    }
  });

  it('refuses a listed push service whose name resolves to an internal address', async () => {
    const app = await setup({ PUSH_ALLOW_LOCAL_ENDPOINTS: '', PUSH_SERVICE_HOSTS: 'localhost' });
    const user = await createUser(app.db);
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/notification/push/subscription',
      headers: await bearerFor(app, user),
      payload: { ...pushService.subscribe().json, endpoint: 'https://localhost/push/resolved' },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe(PUSH_MESSAGES.badEndpoint);
    expect(await subscriptionsOf(app, user.id)).toEqual([]);
  });

  it('the local stand-in only with PUSH_ALLOW_LOCAL_ENDPOINTS, which production refuses; still no private or metadata address', async () => {
    expect(() =>
      loadConfig(testEnv({ NODE_ENV: 'production', PUSH_ALLOW_LOCAL_ENDPOINTS: 'true' })),
    ).toThrow(/^Invalid PUSH_ALLOW_LOCAL_ENDPOINTS: .*NODE_ENV=production/);
    expect(loadConfig(testEnv()).push).toEqual({
      serviceHosts: DEFAULT_PUSH_SERVICE_HOSTS,
      allowLocalEndpoints: false,
    });
    expect(DEFAULT_PUSH_SERVICE_HOSTS).toEqual([
      'fcm.googleapis.com',
      '*.push.services.mozilla.com',
      '*.push.apple.com',
      '*.notify.windows.com',
    ]);
    expect(
      loadConfig(testEnv({ PUSH_SERVICE_HOSTS: ' Push.Example.ng, *.push.example.ng ' })).push
        .serviceHosts,
    ).toEqual(['push.example.ng', '*.push.example.ng']);
    for (const bad of [
      'https://push.example.ng',
      '*',
      '*.ng.',
      '10.0.0.1',
      'a..b',
      'push.*.ng',
      ',',
    ])
      expect(() => loadConfig(testEnv({ PUSH_SERVICE_HOSTS: bad })), bad).toThrow(
        /^Invalid PUSH_SERVICE_HOSTS: /,
      );

    const app = await setup();
    const user = await createUser(app.db);
    const headers = await bearerFor(app, user);
    const device = pushService.subscribe();
    const saved = await app.inject({
      method: 'POST',
      url: '/api/v1/notification/push/subscription',
      headers,
      payload: device.json,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    for (const endpoint of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/push/x',
      'http://192.168.1.1:8080/push/x',
      'http://[fd00:ec2::254]/push/x',
      'https://attacker.test/push/x',
    ]) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/notification/push/subscription',
        headers,
        payload: { ...device.json, endpoint },
      });
      expect(response.statusCode, endpoint).toBe(400);
    }
    expect((await subscriptionsOf(app, user.id)).map((s) => s.endpoint)).toEqual([device.endpoint]);
  });

  it('keeps at most 10 subscriptions per player: the oldest goes, and subscribing again makes one new', async () => {
    const app = await setup();
    const player = await createUser(app.db);
    const devices: FakeSubscription[] = [];
    for (let i = 0; i < 12; i += 1) devices.push(await subscribe(app, player));
    const endpoints = async () =>
      new Set((await subscriptionsOf(app, player.id)).map((s) => s.endpoint));
    expect(await endpoints()).toEqual(new Set(devices.slice(2).map((d) => d.endpoint)));

    await subscribe(app, player, devices[2]);
    devices.push(await subscribe(app, player));
    expect(await endpoints()).toEqual(
      new Set([devices[2], ...devices.slice(4)].map((d) => d?.endpoint)),
    );
  });

  it('sends nothing to an endpoint saved before these rules that leads inside, and removes it', async () => {
    const target = await startTarget();
    const app = await setup({ PUSH_ALLOW_LOCAL_ENDPOINTS: '', PUSH_SERVICE_HOSTS: 'localhost' });
    const player = await createUser(app.db);
    const { keys } = pushService.subscribe().json;
    const port = target.port;
    await app.db
      .insert(pushSubscriptions)
      .values(
        [
          `http://127.0.0.1:${port}/a`,
          `https://127.0.0.1:${port}/b`,
          `https://localhost:${port}/c`,
          `http://localhost:${port}/d`,
          `http://2130706433:${port}/e`,
          `https://0x7f.0.0.1:${port}/f`,
          `http://[::ffff:127.0.0.1]:${port}/g`,
        ].map((endpoint) => ({ userId: player.id, endpoint, ...keys })),
      );
    await notifyPlan(app, player.id);
    expect(target.connections()).toBe(0);
    expect(await subscriptionsOf(app, player.id)).toEqual([]);
    const [job] = await app.db.select().from(jobs).where(eq(jobs.kind, PUSH_JOB));
    expect(job?.doneAt).not.toBeNull();
  });

  it('a player with 300 subscriptions: one notice makes 10 requests, to the newest, and the rest are removed', async () => {
    const app = await setup();
    const player = await createUser(app.db);
    const devices = Array.from({ length: 300 }, () => pushService.subscribe());
    const start = Date.now() - 3_600_000;
    await app.db.insert(pushSubscriptions).values(
      devices.map((device, i) => ({
        userId: player.id,
        endpoint: device.endpoint,
        ...device.json.keys,
        createdAt: new Date(start + i * 1000),
      })),
    );
    const before = pushService.requests();
    await notifyPlan(app, player.id);
    expect(pushService.requests() - before).toBe(10);
    const newest = devices.slice(-10);
    for (const device of newest) expect(pushService.receivedBy(device.endpoint)).toHaveLength(1);
    expect(pushService.receivedBy(devices[0]?.endpoint ?? '')).toEqual([]);
    expect(new Set((await subscriptionsOf(app, player.id)).map((s) => s.endpoint))).toEqual(
      new Set(newest.map((d) => d.endpoint)),
    );
  });

  it('follows no redirect: a push service answering 307 is not obeyed, nor asked again', async () => {
    const app = await setup();
    const player = await createUser(app.db);
    const [moved, elsewhere] = [await subscribe(app, player), pushService.subscribe()];
    pushService.redirect(moved.endpoint, elsewhere.endpoint);
    const before = pushService.requests();
    await notifyPlan(app, player.id);
    expect(pushService.requests() - before).toBe(1);
    expect(pushService.receivedBy(elsewhere.endpoint)).toEqual([]);
    const [delivery] = await app.db
      .select()
      .from(notificationDeliveries)
      .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, notificationDeliveries.subscriptionId))
      .where(eq(pushSubscriptions.userId, player.id));
    expect(delivery?.notification_deliveries).toMatchObject({
      sentAt: null,
      attempts: 5,
      lastError: 'push service answered 307',
    });
  });

  it('a refusal about the request itself (400, 401, 403, 413) is not retried and keeps the subscription', async () => {
    const app = await setup();
    const player = await createUser(app.db);
    const devices = [
      await subscribe(app, player),
      await subscribe(app, player),
      await subscribe(app, player),
      await subscribe(app, player),
    ];
    for (const [i, status] of [400, 401, 403, 413].entries())
      pushService.answer(devices[i]?.endpoint ?? '', status);
    await notifyPlan(app, player.id);
    expect(await subscriptionsOf(app, player.id)).toHaveLength(4);
    const records = await app.db
      .select({
        attempts: notificationDeliveries.attempts,
        error: notificationDeliveries.lastError,
      })
      .from(notificationDeliveries)
      .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, notificationDeliveries.subscriptionId))
      .where(eq(pushSubscriptions.userId, player.id));
    expect(records.map((r) => r.attempts)).toEqual([5, 5, 5, 5]);
    const [job] = await app.db.select().from(jobs).where(eq(jobs.kind, PUSH_JOB));
    expect(job?.lastError).toBeNull();
  });

  it('connects to the address its own lookup checked: a name rebound inside reaches nothing', async () => {
    const answers: string[][] = [];
    let lookups = 0;
    const resolve: Resolve = async () => {
      lookups += 1;
      const next = answers.shift() ?? [];
      return next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    const host = 'push.pluckers.test';
    const rules = { serviceHosts: [host], allowLocal: true };
    // As in the server: the route checks at subscribe time, the worker when it connects.
    const [subscribing, sending] = [pushEndpoints(rules, resolve), pushEndpoints(rules, resolve)];
    const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:push@pluckers.test' };
    const payload = { title: 'Hello', body: 'Pinned', url: '/wallet', tag: 'pinned' };
    const device = pushService.subscribe({ host });
    const row = { endpoint: device.endpoint, ...device.json.keys };

    // A name no DNS knows: only the lookup that checked the address can have connected.
    answers.push(['127.0.0.1'], ['127.0.0.1']);
    await subscribing.vet(device.endpoint);
    expect(await sendPush(row, payload, vapid, sending)).toEqual({ ok: true });
    expect(lookups).toBe(2);
    expect(pushService.receivedBy(device.endpoint)).toEqual([expect.objectContaining({ payload })]);

    const requests = pushService.requests();
    // Rebound after the check at subscribe time: a new connection is refused before it is made,
    // and the subscription dropped. (A connection made before the name moved stays with the
    // address checked when it was made.)
    for (const answer of [['10.0.0.7'], ['127.0.0.1', '169.254.169.254'], ['::ffff:192.168.0.1']]) {
      answers.push(answer);
      const outcome = await sendPush(row, payload, vapid, pushEndpoints(rules, resolve));
      expect(outcome, answer.join()).toMatchObject({ ok: false, gone: true, retry: false });
    }
    // A name that resolves to nothing is a lookup failure: asked again later.
    answers.push([]);
    expect(await sendPush(row, payload, vapid, pushEndpoints(rules, resolve))).toMatchObject({
      ok: false,
      gone: false,
      retry: true,
    });
    expect(pushService.requests()).toBe(requests);

    // Without the test setting, loopback is as refused as any internal address.
    const strict = pushEndpoints({ serviceHosts: [host], allowLocal: false }, resolve);
    const secure = { ...row, endpoint: `https://${host}/push/${randomUUID()}` };
    answers.push(['127.0.0.1'], ['127.0.0.1']);
    await expect(strict.vet(secure.endpoint)).rejects.toThrow();
    expect(await sendPush(secure, payload, vapid, strict)).toMatchObject({ ok: false, gone: true });
    expect(lookups).toBe(8);
    expect(pushService.requests()).toBe(requests);
  });
});
