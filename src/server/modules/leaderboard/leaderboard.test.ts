import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { LeaderboardEntry } from '../../../shared/schemas/games.ts';
import { categories, gameEntries, gameWinners, users } from '../../db/schema.ts';
import { testAppPerFile } from '../../test/app.ts';
import { testDatabasePerFile } from '../../test/database.ts';
import {
  bearerFor,
  createGame,
  createPlan,
  createPlayers,
  createUser,
  uniqueSuffix,
} from '../../test/factories.ts';

const database = testDatabasePerFile();
const testApp = testAppPerFile(database);
const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Small seeded generator (mulberry32): a failing run can be replayed from its seed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)] as T;
  return { next, int, pick };
}

interface Player {
  id: string;
  handle: string;
  level: number;
  deleted: boolean;
  verified: boolean;
  priority: boolean;
}
interface Entry {
  userId: string;
  categoryId: string | null;
  createdAt: Date;
  isWinner: boolean | null;
  prize: bigint;
  refunded: boolean;
}
interface Query {
  dateFrom?: string;
  dateTo?: string;
  categoryID?: string;
  pageSize?: number;
}

/** The calendar day in Lagos (UTC+1, no daylight saving) of a moment. */
const lagosDate = (at: Date) => new Date(at.getTime() + HOUR).toISOString().slice(0, 10);

/**
 * The leaderboard computed the obvious way: drawn, unrefunded entries of live accounts in the
 * window (Lagos days, both ends included) and category; per player the sum of winnings and
 * 10 points per game + 50 per win; ordered by winnings, then priority placement, then points.
 */
function reference(players: Player[], entries: Entry[], query: Query): LeaderboardEntry[] {
  const byId = new Map(players.map((player) => [player.id, player]));
  const totals = new Map<string, { won: bigint; points: number }>();
  for (const entry of entries) {
    const player = byId.get(entry.userId);
    if (!player || player.deleted) continue;
    if (entry.isWinner === null || entry.refunded) continue;
    const day = lagosDate(entry.createdAt);
    if (query.dateFrom && day < query.dateFrom) continue;
    if (query.dateTo && day > query.dateTo) continue;
    if (query.categoryID && entry.categoryId !== query.categoryID) continue;
    const total = totals.get(player.id) ?? { won: 0n, points: 0 };
    total.won += entry.prize;
    total.points += 10 + (entry.isWinner ? 50 : 0);
    totals.set(player.id, total);
  }
  return [...totals]
    .map(([id, total]) => ({ player: byId.get(id) as Player, ...total }))
    .sort(
      (a, b) =>
        Number(b.won - a.won) ||
        Number(b.player.priority) - Number(a.player.priority) ||
        b.points - a.points,
    )
    .map(({ player, won, points }) => ({
      username: player.verified ? player.handle : `plucker_${player.handle}`,
      isVerified: player.verified,
      level: player.level,
      totalAmountWon: Number(won) / 100,
      totalPoints: points,
    }));
}

/**
 * Rows that tie on (winnings, priority, points) may come in any order, so both lists are
 * compared rank group by rank group; a group cut by the page size only has to be a part of
 * the expected one.
 */
function expectSameRanking(
  actual: LeaderboardEntry[],
  expected: LeaderboardEntry[],
  players: Player[],
  message: string,
) {
  const priority = new Map(
    players.map((player) => [
      player.verified ? player.handle : `plucker_${player.handle}`,
      player.priority,
    ]),
  );
  const key = (row: LeaderboardEntry) =>
    `${row.totalAmountWon}|${priority.get(row.username)}|${row.totalPoints}`;
  expect(actual.map(key), message).toEqual(expected.slice(0, actual.length).map(key));
  const sortByName = (rows: LeaderboardEntry[]) =>
    [...rows].sort((a, b) => a.username.localeCompare(b.username));
  let start = 0;
  while (start < actual.length) {
    let end = start;
    while (
      end < actual.length &&
      key(actual[end] as LeaderboardEntry) === key(actual[start] as LeaderboardEntry)
    )
      end += 1;
    const group = key(actual[start] as LeaderboardEntry);
    const expectedGroup = expected.filter((row) => key(row) === group);
    if (end === actual.length && end < expected.length) {
      // The page ends inside this group: any of its members may fill the last places.
      for (const row of actual.slice(start, end))
        expect(expectedGroup, message).toContainEqual(row);
    } else {
      expect(sortByName(actual.slice(start, end)), message).toEqual(sortByName(expectedGroup));
    }
    start = end;
  }
}

async function fetchBoard(app: FastifyInstance, headers: Record<string, string>, query: Query) {
  const search = new URLSearchParams(
    Object.entries({ pageSize: 100, ...query }).map(([k, v]) => [k, String(v)]),
  );
  const response = await app.inject({ url: `/api/v1/leaderboard?${search}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as LeaderboardEntry[];
}

function need<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('missing test data');
  return value;
}

async function fetchMyRank(
  app: FastifyInstance,
  headers: Record<string, string>,
  query: Omit<Query, 'pageSize'>,
) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const response = await app.inject({ url: `/api/v1/leaderboard/me?${search}`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { rank: number | null; entry: LeaderboardEntry | null };
}

describe('GET /leaderboard', () => {
  it('matches a straightforward reference computation on generated data', async () => {
    const seed = Math.floor(Math.random() * 2 ** 31);
    const random = generator(seed);
    const app = testApp();
    const viewer = await createUser(app.db);
    const headers = await bearerFor(app, viewer);
    const suffix = uniqueSuffix();

    // A private stretch of days far from any other test's data: ten Lagos days of year Y.
    const year = 3000 + random.int(0, 900);
    const firstDay = Date.UTC(year, random.int(0, 10), random.int(1, 18)) - HOUR;
    const dayName = (index: number) => lagosDate(new Date(firstDay + index * DAY));

    const cats = await app.db
      .insert(categories)
      .values([
        { title: `Leaderboard A ${suffix}`, emoji: '🅰️' },
        { title: `Leaderboard B ${suffix}`, emoji: '🅱️' },
      ])
      .returning({ id: categories.id });
    const categoryIds = [...cats.map((category) => category.id), null];

    const vip = await createPlan(app.db, {
      getVerifiedBadge: true,
      priorityLeaderboardPlacement: true,
    });
    const badgeOnly = await createPlan(app.db, { getVerifiedBadge: true });
    const priorityOnly = await createPlan(app.db, { priorityLeaderboardPlacement: true });
    const planChoices = [null, null, null, vip, badgeOnly, priorityOnly] as const;

    const playerCount = 45;
    const inserted = await createPlayers(app.db, playerCount, (i) => {
      const plan = random.pick(planChoices);
      return {
        planId: plan?.id ?? null,
        level: random.int(1, 5),
        deletedAt: i === 0 ? new Date() : null,
      };
    });
    const features = new Map(
      [vip, badgeOnly, priorityOnly].map((plan) => [plan.id, plan.features]),
    );
    const players: Player[] = inserted.map((row, i) => ({
      id: row.id,
      handle: row.handle,
      level: row.level,
      deleted: i === 0,
      verified: features.get(row.planId ?? '')?.getVerifiedBadge ?? false,
      priority: features.get(row.planId ?? '')?.priorityLeaderboardPlacement ?? false,
    }));

    // Games: mostly drawn, some cancelled (refunded entries), a few still pending.
    const entries: Entry[] = [];
    const rewards = [0n, 50_000n, 100_000n, 250_000n];
    for (let g = 0; g < 36; g += 1) {
      const categoryId = random.pick(categoryIds);
      const outcome = random.pick(['COMPLETED', 'COMPLETED', 'COMPLETED', 'CANCELLED', 'CLOSED']);
      const reward = random.pick(rewards);
      const game = await createGame(app.db, {
        categoryId,
        reward,
        status: outcome as 'COMPLETED' | 'CANCELLED' | 'CLOSED',
        maximumPlayers: 50,
      });
      const size = random.int(3, 14);
      const chosen = new Set<number>();
      while (chosen.size < size) chosen.add(random.int(0, playerCount - 1));
      // Around a day boundary now and then: 22:30–23:30 UTC straddles Lagos midnight.
      const day = random.int(0, 9);
      const rows = [...chosen].map((index) => {
        const createdAt = new Date(
          firstDay +
            day * DAY +
            (random.next() < 0.3
              ? 23 * HOUR + random.int(-30, 30) * 60_000
              : random.int(0, 23 * 60) * 60_000),
        );
        // Pending (not drawn yet) and cancelled (refunded) entries have no result; some
        // refunded rows say false, as cancellations recorded before that was fixed do.
        const isWinner =
          outcome === 'COMPLETED'
            ? random.next() < 0.25
            : outcome === 'CANCELLED' && random.next() < 0.5
              ? false
              : null;
        const entry: Entry = {
          userId: (players[index] as Player).id,
          categoryId,
          createdAt,
          isWinner,
          prize: isWinner ? reward : 0n,
          refunded: outcome === 'CANCELLED',
        };
        entries.push(entry);
        return { gameId: game.id, answer: 'generated', amountPaid: 0n, ...entry };
      });
      const written = await app.db
        .insert(gameEntries)
        .values(rows.map(({ categoryId: _, isWinner: _won, prize: _prize, ...row }) => row))
        .returning();
      // A draw's winners, each a row of game_winners beside its entry (in the same order).
      const winners = written.flatMap((entry, index) =>
        rows[index]?.isWinner
          ? [
              {
                gameId: entry.gameId,
                entryId: entry.id,
                userId: entry.userId,
                prize: rows[index]?.prize ?? 0n,
                createdAt: entry.createdAt,
              },
            ]
          : [],
      );
      if (winners.length > 0) await app.db.insert(gameWinners).values(winners);
    }
    expect(entries.length).toBeGreaterThan(200);

    const [catA, catB] = categoryIds as [string, string, null];
    const queries: Query[] = [
      { dateFrom: dayName(0), dateTo: dayName(9) },
      { dateFrom: dayName(3), dateTo: dayName(6) },
      { dateFrom: dayName(4), dateTo: dayName(4) },
      { dateFrom: dayName(0), dateTo: dayName(9), categoryID: catA },
      { dateFrom: dayName(2), dateTo: dayName(7), categoryID: catB },
      { dateFrom: dayName(5) },
      { dateTo: dayName(5), categoryID: catA },
      { categoryID: catB },
      { dateFrom: dayName(0), dateTo: dayName(9), pageSize: 5 },
      { dateFrom: dayName(1), dateTo: dayName(8), pageSize: 12 },
    ];
    for (const query of queries) {
      const message = `seed ${seed}, query ${JSON.stringify(query)}`;
      const expected = reference(players, entries, query);
      const actual = await fetchBoard(app, headers, query);
      expect(actual.length, message).toBe(Math.min(expected.length, query.pageSize ?? 100));
      expectSameRanking(actual, expected, players, message);

      // GET /leaderboard/me: each player's own place on the whole board (checked above).
      if (query.pageSize !== undefined) continue;
      const { pageSize: _, ...window } = query;
      for (const player of [1, 2, 3].map(() => random.pick(players.slice(1)))) {
        const [account] = await app.db.select().from(users).where(eq(users.id, player.id));
        const mine = await fetchMyRank(app, await bearerFor(app, need(account)), window);
        const at = actual.findIndex(
          (row) => row.username === player.handle || row.username === `plucker_${player.handle}`,
        );
        expect(mine, message).toEqual(
          at === -1 ? { rank: null, entry: null } : { rank: at + 1, entry: actual[at] },
        );
      }
    }

    // Nobody outside the window, an unknown category, and a malformed one.
    expect(await fetchBoard(app, headers, { dateFrom: dayName(10), dateTo: dayName(12) })).toEqual(
      [],
    );
    expect(
      await fetchBoard(app, headers, { categoryID: '00000000-0000-4000-8000-000000000000' }),
    ).toEqual([]);
    expect(await fetchBoard(app, headers, { categoryID: 'nope' })).toEqual([]);
    const deleted = players[0] as Player;
    const everything = await fetchBoard(app, headers, { dateFrom: dayName(0) });
    expect(everything.map((row) => row.username)).not.toContain(`plucker_${deleted.handle}`);
  });

  it('needs a token and validates its query', async () => {
    const app = testApp();
    expect((await app.inject({ url: '/api/v1/leaderboard' })).statusCode).toBe(401);
    const headers = await bearerFor(app, await createUser(app.db));
    const bad = await app.inject({ url: '/api/v1/leaderboard?dateFrom=yesterday', headers });
    expect(bad.json()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'dateFrom must be YYYY-MM-DD',
    });
    const tooMany = await app.inject({ url: '/api/v1/leaderboard?pageSize=1000', headers });
    expect(tooMany.statusCode).toBe(400);
  });
});
