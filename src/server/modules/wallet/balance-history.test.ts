import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BALANCE_HISTORY_POSTINGS, type BalanceHistory } from '../../../shared/schemas/wallet.ts';
import { gameWinners } from '../../db/schema.ts';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createAdmin,
  createGame,
  createPlayer,
  fundWallet,
  play,
  type UserRow,
} from '../../test/factories.ts';
import { balanceOf, reviewSandboxTopUpsOf } from '../../test/fake-money.ts';
import { topUpFlow } from '../../test/top-ups.ts';

/** GET /wallet/balance-history: the wallet after each posting, as the ledger records it. */
const database = testDatabasePerFile();
const PUBLIC_URL = 'http://localhost:3999';
const fileApp = testAppPerFile(database, { PUBLIC_URL });

async function historyOf(app: FastifyInstance, user: UserRow): Promise<BalanceHistory> {
  const response = await app.inject({
    url: '/api/v1/wallet/balance-history',
    headers: await bearerFor(app, user),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as BalanceHistory;
}

/** A top-up through the sandbox checkout: a real `top_up` posting with its payment row. */
async function topUp(app: FastifyInstance, user: UserRow, naira: number) {
  onTestFinished(() => reviewSandboxTopUpsOf(app.db, user.id));
  const flow = topUpFlow(app, await bearerFor(app, user), PUBLIC_URL);
  const { paymentUrl } = await flow.start(naira, 'paystack');
  await flow.paySandbox(paymentUrl);
}

describe('GET /wallet/balance-history', () => {
  it('draws every kind of movement with its running balance, ending at the wallet balance', async () => {
    const app = fileApp();
    // Five players in a game of five: exactly one wins, and the test follows that one.
    const players = await Promise.all(Array.from({ length: 5 }, () => createPlayer(app.db)));
    for (const player of players) await topUp(app, player, 2500);
    const game = await createGame(app.db, {
      entryFee: 10_000n,
      reward: 30_000n,
      maximumPlayers: 5,
    });
    for (const player of players) {
      const played = await play(app, player, game.id);
      expect(played.statusCode, played.body).toBe(201);
    }
    expect(await app.jobs.runDue()).toBeGreaterThanOrEqual(1);
    const [won] = await app.db.select().from(gameWinners).where(eq(gameWinners.gameId, game.id));
    const winner = players.find((player) => player.id === won?.userId) as UserRow;
    const loser = players.find((player) => player.id !== winner.id) as UserRow;

    const operator = await bearerFor(app, await createAdmin(app.db));
    const adjusted = await app.inject({
      method: 'POST',
      url: `/api/v1/admin/users/${winner.id}/adjust`,
      headers: operator,
      payload: { amount: 1_245_000, reason: 'Goodwill credit after a failed transfer' },
    });
    expect(adjusted.statusCode, adjusted.body).toBe(200);
    const withdrawn = await app.inject({
      method: 'POST',
      url: '/api/v1/withdrawal',
      headers: await bearerFor(app, winner),
      payload: { amount: 1000 },
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(201);
    const fee = (withdrawn.json().data as { fee: number }).fee;

    const history = await historyOf(app, winner);
    expect(history.hasEarlier).toBe(false);
    expect(history.points.map((point) => [point.movement, point.change, point.balance])).toEqual([
      ['top_up', 2500, 2500],
      ['entry', -100, 2400],
      ['prize', 300, 2700],
      ['adjustment', 1_245_000, 1_247_700],
      ['withdrawal', -(1000 + fee), 1_247_700 - 1000 - fee],
    ]);
    const times = history.points.map((point) => Date.parse(point.at));
    expect(times.every((time, index) => index === 0 || time >= (times[index - 1] as number))).toBe(
      true,
    );
    expect(history.points.at(-1)?.balance).toBe(Number(await balanceOf(app.db, winner.id)) / 100);

    // The loser's wallet is theirs alone: none of the winner's postings, no prize.
    const theirs = await historyOf(app, loser);
    expect(theirs.points.map((point) => [point.movement, point.balance])).toEqual([
      ['top_up', 2500],
      ['entry', 2400],
    ]);
  });

  it(`answers the latest ${BALANCE_HISTORY_POSTINGS} postings, the first of them starting where the earlier ones left off`, async () => {
    const app = fileApp();
    const player = await createPlayer(app.db);
    for (let posting = 1; posting <= BALANCE_HISTORY_POSTINGS + 2; posting += 1)
      await fundWallet(app.db, player.id, BigInt(posting * 100));

    const history = await historyOf(app, player);
    expect(history.hasEarlier).toBe(true);
    expect(history.points).toHaveLength(BALANCE_HISTORY_POSTINGS);
    // Postings of ₦1, ₦2 … ₦62: the window starts at the third, after ₦1 + ₦2.
    expect(history.points[0]).toMatchObject({ movement: 'top_up', change: 3, balance: 6 });
    const total = ((BALANCE_HISTORY_POSTINGS + 2) * (BALANCE_HISTORY_POSTINGS + 3)) / 2;
    expect(history.points.at(-1)).toMatchObject({ change: BALANCE_HISTORY_POSTINGS + 2 });
    expect(history.points.at(-1)?.balance).toBe(total);
    expect(Number(await balanceOf(app.db, player.id)) / 100).toBe(total);
  });

  it('is empty for a wallet nothing has moved yet, and refuses a caller without a token', async () => {
    const app = fileApp();
    expect(await historyOf(app, await createPlayer(app.db))).toEqual({
      points: [],
      hasEarlier: false,
    });
    const anonymous = await app.inject({ url: '/api/v1/wallet/balance-history' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
  });
});
