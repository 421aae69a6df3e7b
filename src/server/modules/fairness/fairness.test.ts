import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { firstRoundAfter, roundTime } from '../../../shared/beacon.ts';
import { checkDraw } from '../../../shared/draw-check.ts';
import { webFairnessCrypto } from '../../../shared/fairness.ts';
import { type FairnessLogRecord, verifyFairnessLog } from '../../../shared/fairness-log.ts';
import type { FairnessLogPage } from '../../../shared/schemas/fairness.ts';
import type { DrawProofResponse } from '../../../shared/schemas/games.ts';
import { fairnessLog, games, gameWinners, jobs } from '../../db/schema.ts';
import { buildTestApp, testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import { bearerFor, createPlayer, createUser, play, testClock } from '../../test/factories.ts';
import { type FakeBeacon, startFakeBeacon } from '../../test/fake-beacon.ts';

const database = testDatabasePerFile();
const testApp = testAppPerFile(database);

async function beaconOfItsOwn(): Promise<FakeBeacon> {
  const beacon = await startFakeBeacon();
  onTestFinished(() => beacon.close());
  return beacon;
}

async function operator(app: FastifyInstance) {
  const headers = await bearerFor(app, await createUser(app.db, { role: 'admin' }));
  return (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url: `/api/v1${url}`, headers, ...(payload ? { payload } : {}) });
}

async function createGameAs(
  admin: Awaited<ReturnType<typeof operator>>,
  values: { maximumPlayers: number; entryFee?: number },
): Promise<string> {
  const response = await admin('POST', '/admin/games', {
    title: `Fair game ${Math.random().toString(36).slice(2, 8)}`,
    description: 'Say anything',
    entryFee: values.entryFee ?? 0,
    reward: 100,
    maximumPlayers: values.maximumPlayers,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.id;
}

async function fillGame(app: FastifyInstance, gameId: string, players: number) {
  for (let i = 0; i < players; i += 1) {
    const player = await createPlayer(app.db, { kobo: 50_000n });
    const response = await play(app, player, gameId, `answer number ${i}`);
    expect(response.statusCode, response.body).toBe(201);
  }
}

async function proofOf(app: FastifyInstance, gameId: string): Promise<DrawProofResponse> {
  const response = await app.inject({ url: `/api/v1/game/${gameId}/draw` });
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

/** Pages through the public log from `from` to the head, as a downloader would. */
async function readLog(app: FastifyInstance, from: number, limit = 3) {
  const records: FairnessLogRecord[] = [];
  let prevHash: string | undefined;
  let next: number | null = from;
  while (next !== null) {
    const response = await app.inject({ url: `/api/v1/fairness/log?from=${next}&limit=${limit}` });
    expect(response.statusCode, response.body).toBe(200);
    const page: FairnessLogPage = response.json().data;
    prevHash ??= page.prevHash;
    records.push(...page.records);
    next = page.next;
  }
  return { records, prevHash: prevHash as string };
}

const kindsOf = (records: FairnessLogRecord[], gameId: string) =>
  records.filter((record) => record.gameId === gameId).map((record) => record.kind);

describe('the public fairness log', () => {
  it('records every commitment, seal, beacon round, result and cancellation, chained in order', async () => {
    const app = testApp();
    const admin = await operator(app);
    const drawn = await createGameAs(admin, { maximumPlayers: 5 });
    const tooFew = await createGameAs(admin, { maximumPlayers: 10 });
    const stopped = await createGameAs(admin, { maximumPlayers: 10 });

    await fillGame(app, drawn, 5);
    await fillGame(app, tooFew, 2);
    expect((await admin('POST', `/admin/games/${tooFew}/close`)).statusCode).toBe(200);
    const cancel = await admin('POST', `/admin/games/${stopped}/cancel`, {
      reason: 'Question published with a typo',
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await app.jobs.runDue();

    const [first] = await app.db
      .select({ position: fairnessLog.position })
      .from(fairnessLog)
      .where(and(eq(fairnessLog.gameId, drawn), eq(fairnessLog.kind, 'commitment')));
    const { records, prevHash } = await readLog(app, first?.position as number);
    expect(verifyFairnessLog(records, prevHash, first?.position ?? undefined)).toMatchObject({
      ok: true,
    });

    expect(kindsOf(records, drawn)).toEqual(['commitment', 'seal', 'beacon', 'result']);
    expect(kindsOf(records, tooFew)).toEqual(['commitment', 'seal', 'cancellation']);
    expect(kindsOf(records, stopped)).toEqual(['commitment', 'cancellation']);
    const body = (gameId: string, kind: string) =>
      JSON.parse(
        records.find((record) => record.gameId === gameId && record.kind === kind)?.body ?? '{}',
      );
    expect(body(tooFew, 'cancellation')).toMatchObject({
      rule: 'fewer-than-5-players',
      players: 2,
    });
    expect(body(stopped, 'cancellation')).toMatchObject({
      rule: 'operator',
      reason: 'Question published with a typo',
    });
    expect((await proofOf(app, stopped)).cancelReason).toBe('Question published with a typo');

    // The completed game's proof passes every check, its log records included.
    const checks = await checkDraw(webFairnessCrypto, await proofOf(app, drawn));
    expect(checks.map((check) => [check.id, check.status])).toEqual([
      ['commitment', 'pass'],
      ['seal', 'pass'],
      ['beacon', 'pass'],
      ['winners', 'pass'],
      ['log', 'pass'],
    ]);
  });

  it('shows where a record was rewritten behind its back', async () => {
    const app = testApp();
    const admin = await operator(app);
    const gameId = await createGameAs(admin, { maximumPlayers: 5 });
    await fillGame(app, gameId, 5);
    await app.jobs.runDue();
    const [seal] = await app.db
      .select()
      .from(fairnessLog)
      .where(and(eq(fairnessLog.gameId, gameId), eq(fairnessLog.kind, 'seal')));
    if (!seal?.position) throw new Error('the seal was not chained');

    const forged = seal.body.replace(
      /"merkleRoot":"[0-9a-f]{64}"/,
      `"merkleRoot":"${'0'.repeat(64)}"`,
    );
    await app.db.update(fairnessLog).set({ body: forged }).where(eq(fairnessLog.id, seal.id));
    onTestFinished(async () => {
      await app.db.update(fairnessLog).set({ body: seal.body }).where(eq(fairnessLog.id, seal.id));
    });

    const { records, prevHash } = await readLog(app, seal.position - 1);
    expect(verifyFairnessLog(records, prevHash, seal.position - 1)).toEqual({
      ok: false,
      position: seal.position,
      reason: `Record ${seal.position} was changed after it was written (its hash does not match its content)`,
    });
    const checks = await checkDraw(webFairnessCrypto, await proofOf(app, gameId));
    expect(checks.find((check) => check.id === 'log')).toEqual({
      id: 'log',
      status: 'fail',
      text: `Log record ${seal.position} was changed after it was written`,
    });
  });

  it('refuses a page request it cannot serve, with a clear message', async () => {
    const app = testApp();
    for (const query of ['from=0', 'from=abc', 'limit=0', 'limit=1001']) {
      const response = await app.inject({ url: `/api/v1/fairness/log?${query}` });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toMatch(
        /^(from must be a record position|limit must be between 1 and 1000)/,
      );
    }
  });
});

describe('a draw waits for its beacon round and never uses anything else', () => {
  it('waits while the round is unpublished, the beacon is down or lies, then draws from the genuine round', async () => {
    const beacon = await beaconOfItsOwn();
    beacon.publishUpTo(0);
    const clock = testClock();
    const app = await buildTestApp(database(), beacon.env, { clock });
    const admin = await operator(app);
    const gameId = await createGameAs(admin, { maximumPlayers: 5, entryFee: 0 });
    await fillGame(app, gameId, 5);
    const [closed] = await app.db.select().from(games).where(eq(games.id, gameId));
    const round = firstRoundAfter(beacon.chain, closed?.closedAt as Date);

    const stillClosed = async (waitingFor: RegExp) => {
      const [job] = await app.db
        .select()
        .from(jobs)
        .where(eq(jobs.key, `draw:${gameId}`));
      if (!job) throw new Error('the draw job is missing');
      clock.set(new Date(job.runAt.getTime() + 1));
      await app.jobs.runDue();
      const proof = await proofOf(app, gameId);
      expect(proof.status).toBe('CLOSED');
      expect(proof.seed).toBeNull();
      expect(proof.beacon?.round).toBe(round);
      expect(proof.waitingFor).toMatch(waitingFor);
      const winners = await app.db.select().from(gameWinners).where(eq(gameWinners.gameId, gameId));
      expect(winners).toEqual([]);
    };

    await stillClosed(new RegExp(`^Waiting for beacon round ${round}, due at `));
    const [job] = await app.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `draw:${gameId}`));
    // Asked again when the round is due, not hammered.
    expect(job?.runAt.getTime()).toBeGreaterThanOrEqual(roundTime(beacon.chain, round).getTime());

    beacon.publishUpTo(null);
    beacon.setDown(true);
    await stillClosed(/answered 503/);
    beacon.setDown(false);
    beacon.forge(round);
    await stillClosed(new RegExp(`The signature of beacon round ${round} is not valid: refused`));
    beacon.honest();

    const [due] = await app.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `draw:${gameId}`));
    if (!due) throw new Error('the draw job is missing');
    clock.set(new Date(due.runAt.getTime() + 1));
    await app.jobs.runDue();
    const proof = await proofOf(app, gameId);
    expect(proof.status).toBe('COMPLETED');
    expect(proof.beacon).toMatchObject(beacon.sign(round));
    expect(proof.waitingFor).toBeNull();
    const checks = await checkDraw(webFairnessCrypto, proof);
    expect(checks.every((check) => check.status === 'pass')).toBe(true);
  });

  it('says so when the beacon cannot be reached at all', async () => {
    const gone = await startFakeBeacon();
    await gone.close();
    const app = await buildTestApp(database(), gone.env);
    const admin = await operator(app);
    const gameId = await createGameAs(admin, { maximumPlayers: 5 });
    await fillGame(app, gameId, 5);
    await app.jobs.runDue();
    const proof = await proofOf(app, gameId);
    expect(proof.status).toBe('CLOSED');
    expect(proof.waitingFor).toMatch(
      /^The randomness beacon could not be reached for round \d+; retrying$/,
    );
  });
});

describe('cancelling is bound by the published rules', () => {
  it('an operator may cancel with a reason until the draw randomness is public, never after', async () => {
    const beacon = await beaconOfItsOwn();
    beacon.publishUpTo(0);
    const clock = testClock(Date.parse('2026-11-25T10:00:00.200Z'));
    const app = await buildTestApp(database(), beacon.env, { clock });
    const admin = await operator(app);

    const early = await createGameAs(admin, { maximumPlayers: 5 });
    await fillGame(app, early, 5);
    const allowed = await admin('POST', `/admin/games/${early}/cancel`, {
      reason: 'Server incident',
    });
    expect(allowed.statusCode, allowed.body).toBe(200);

    const late = await createGameAs(admin, { maximumPlayers: 5, entryFee: 100 });
    await fillGame(app, late, 5);
    const [closed] = await app.db.select().from(games).where(eq(games.id, late));
    const round = firstRoundAfter(beacon.chain, closed?.closedAt as Date);
    clock.set(roundTime(beacon.chain, round));
    const refused = await admin('POST', `/admin/games/${late}/cancel`, {
      reason: 'Did not like it',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      "This game's draw randomness is already public, so it can no longer be cancelled: the draw will run",
    );
    const [after] = await app.db.select().from(games).where(eq(games.id, late));
    expect(after?.status).toBe('CLOSED');
    const cancellations = await app.db
      .select()
      .from(fairnessLog)
      .where(and(eq(fairnessLog.gameId, late), eq(fairnessLog.kind, 'cancellation')));
    expect(cancellations).toEqual([]);
  });
});
