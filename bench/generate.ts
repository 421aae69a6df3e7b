/**
 * Data generators for the large benchmark cases, reusable by tests. Everything is set-based SQL
 * (INSERT … SELECT generate_series), so 100,000 users or 1,000,000 entries take seconds, not
 * minutes. Ids are derived from a prefix and an index (md5 → uuid), so a caller can name a row
 * without reading it back: `benchUserId('lb', 42)`. Use a fresh prefix per dataset when several
 * share one database. Money only moves through balanced ledger transactions, so `checkLedger`
 * stays green on every dataset.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../src/server/db/client.ts';
import { drawnEntrySql } from '../src/server/db/outcome.ts';
import { ACCOUNTS, post } from '../src/server/modules/wallet/ledger.ts';
import type { LedgerAccount, LedgerKind } from '../src/shared/ledger.ts';

const DAY_MS = 86_400_000;

/**
 * An md5 shaped as a version-4 UUID (version nibble 4, variant 8), so the API's UUID checks
 * accept it (GET /game/:id refused the raw md5 with 400); the SQL below does the same.
 */
function md5Uuid(text: string): string {
  const md5 = createHash('md5').update(text).digest('hex');
  const hex = `${md5.slice(0, 12)}4${md5.slice(13, 16)}8${md5.slice(17)}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of user `index` of a dataset (the same as the SQL below derives). */
export const benchUserId = (prefix: string, index: number) =>
  md5Uuid(`bench:user:${prefix}:${index}`);
export const benchGameId = (prefix: string, index: number) =>
  md5Uuid(`bench:game:${prefix}:${index}`);

const userIdSql = (prefix: string, index: ReturnType<typeof sql>) =>
  sql`overlay(overlay(md5(${`bench:user:${prefix}:`}::text || (${index})::text) placing '4' from 13) placing '8' from 17)::uuid`;
const gameIdSql = (prefix: string, index: ReturnType<typeof sql>) =>
  sql`overlay(overlay(md5(${`bench:game:${prefix}:`}::text || (${index})::text) placing '4' from 13) placing '8' from 17)::uuid`;

/** A 32-byte seed (hex) and its sha256 commitment, made in SQL; fine for bench data only. */
const SEED_SQL = sql.raw(`md5(random()::text) || md5(random()::text)`);

async function rowsOf<T>(db: Executor, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** A user of the dataset who has not played since `since` (Lagos midnight): under every daily limit. */
export async function idlePlayerId(db: Executor, prefix: string, since: Date): Promise<string> {
  const [row] = await rowsOf<{ id: string }>(
    db,
    sql`SELECT u.id FROM users u
      WHERE u.email ~ ${`^${prefix}[0-9]+@bench\\.test$`}
        AND NOT EXISTS (SELECT 1 FROM game_entries e
          WHERE e.user_id = u.id AND e.created_at >= ${since.toISOString()})
      ORDER BY u.id LIMIT 1`,
  );
  if (!row)
    throw new Error(`every player of dataset ${prefix} has played since ${since.toISOString()}`);
  return row.id;
}

function checkPrefix(prefix: string, count: number) {
  if (!/^[a-z][a-z0-9]{0,7}$/.test(prefix)) throw new Error(`bad dataset prefix ${prefix}`);
  // Handles are 3–20 characters: prefix + index must fit.
  if (prefix.length + String(count).length > 20) throw new Error('prefix too long for handles');
}

/**
 * `count` verified players, handles `<prefix><index>`. Every `vipEvery`-th one (when given)
 * holds the seeded VIP plan for another week.
 */
export async function generateUsers(
  db: Executor,
  options: { prefix: string; count: number; vipEvery?: number; now?: Date },
): Promise<void> {
  checkPrefix(options.prefix, options.count);
  const now = (options.now ?? new Date()).toISOString();
  const vipEvery = options.vipEvery ?? 0;
  await db.execute(sql`
    INSERT INTO users (id, handle, fullname, email, email_verified_at, age_confirmed_at,
      plan_id, plan_expires_at, created_at)
    SELECT ${userIdSql(options.prefix, sql`g`)},
      ${options.prefix}::text || g, 'Bench Plucker ' || g, ${options.prefix}::text || g || '@bench.test',
      ${now}::timestamptz, ${now}::timestamptz,
      CASE WHEN ${vipEvery}::int > 0 AND g % greatest(${vipEvery}::int, 1) = 0 THEN (SELECT id FROM plans WHERE plan_name = 'VIP') END,
      CASE WHEN ${vipEvery}::int > 0 AND g % greatest(${vipEvery}::int, 1) = 0 THEN ${now}::timestamptz + interval '7 days' END,
      ${now}::timestamptz - interval '200 days'
    FROM generate_series(0, ${options.count - 1}::int) AS g`);
}

export interface GameSpec {
  prefix: string;
  count: number;
  status: 'ONGOING' | 'CLOSED' | 'COMPLETED';
  entryFeeKobo: bigint;
  /** Reward of game i: base + (i % 10) × step, so winnings differ between games. */
  rewardKobo: bigint;
  rewardStepKobo?: bigint;
  maximumPlayers: number;
  /** Creation times spread evenly from `now` back over this many days (game 0 newest). */
  spreadDays?: number;
  now?: Date;
}

const gameCreatedAtSql = (spec: GameSpec, index: ReturnType<typeof sql>) =>
  sql`${(spec.now ?? new Date()).toISOString()}::timestamptz - ((${index})::float8 / ${spec.count}::float8 * ${spec.spreadDays ?? 0}::float8 * ${DAY_MS}::float8) * interval '1 millisecond'`;

/** `count` games in one category each (round robin over the seeded categories). */
export async function generateGames(db: Executor, spec: GameSpec): Promise<void> {
  const step = spec.rewardStepKobo ?? 0n;
  const drawn = spec.status === 'COMPLETED';
  await db.execute(sql`
    INSERT INTO games (id, title, description, category_id, entry_fee, reward, maximum_players,
      player_count, status, seed, commitment, closed_at, drawn_at, created_at)
    SELECT id, title, 'Generated by bench/generate.ts', category_id, entry_fee, reward,
      maximum_players, 0, status, seed, encode(sha256(decode(seed, 'hex')), 'hex'),
      CASE WHEN status <> 'ONGOING' THEN created_at + interval '1 hour' END,
      CASE WHEN ${drawn}::boolean THEN created_at + interval '1 hour' END, created_at
    FROM (
      SELECT ${gameIdSql(spec.prefix, sql`g`)} AS id,
        ${`Bench ${spec.prefix} game `}::text || g AS title,
        (array(SELECT id FROM categories ORDER BY title))[1 + (g % greatest((SELECT count(*) FROM categories), 1))::int] AS category_id,
        ${spec.entryFeeKobo}::bigint AS entry_fee,
        ${spec.rewardKobo}::bigint + (g % 10) * ${step}::bigint AS reward,
        ${spec.maximumPlayers}::int AS maximum_players,
        ${spec.status}::text AS status,
        ${SEED_SQL} AS seed,
        ${gameCreatedAtSql(spec, sql`g`)} AS created_at
      FROM generate_series(0, ${spec.count - 1}::int) AS g
    ) AS generated`);
}

/**
 * `perGame` entries in each of the games `[0, games)` of `gamePrefix`, by users of `userPrefix`
 * spread pseudo-randomly (`(game × 7919 + k × 4729) mod users`, distinct within a game since
 * 4729 is prime). With `regulars`, every other entry of a game goes to the first `regulars`
 * users and the rest to the others, so a few players play (and win) far more often than most,
 * as on a real leaderboard. Entries with k < `winnersPerGame` are drawn winners of the game's
 * reward when `drawn`; otherwise every entry is pending. Each game's player_count is set to
 * match.
 */
export async function generateEntries(
  db: Executor,
  options: {
    games: GameSpec;
    userPrefix: string;
    users: number;
    perGame: number;
    drawn: boolean;
    winnersPerGame?: number;
    /** Entry k of a game is created k × this many seconds after the game. */
    secondsApart?: number;
    regulars?: number;
  },
): Promise<void> {
  const { games, users, perGame } = options;
  const regulars = options.regulars ?? 0;
  const pools = regulars > 0 ? [regulars, users - regulars] : [users];
  for (const pool of pools) {
    if (pool < (regulars > 0 ? Math.ceil(perGame / 2) : perGame))
      throw new Error('more entries per game than users');
    if (pool % 4729 === 0) throw new Error('user pools must not be multiples of 4729');
  }
  const userIndex =
    regulars > 0
      ? sql`CASE WHEN k % 2 = 0
          THEN (gi::bigint * 7919 + (k / 2)::bigint * 4729) % ${regulars}::bigint
          ELSE ${regulars}::bigint + (gi::bigint * 7919 + (k / 2)::bigint * 4729) % ${users - regulars}::bigint END`
      : sql`(gi::bigint * 7919 + k::bigint * 4729) % ${users}::bigint`;
  const winners = options.drawn ? (options.winnersPerGame ?? Math.floor(perGame / 5)) : 0;
  await db.execute(sql`
    INSERT INTO game_entries (game_id, user_id, answer, amount_paid, created_at)
    SELECT ${gameIdSql(games.prefix, sql`gi`)},
      ${userIdSql(options.userPrefix, userIndex)},
      'Jollof with fried plantain, always', ${games.entryFeeKobo}::bigint,
      ${gameCreatedAtSql(games, sql`gi`)} + k * ${options.secondsApart ?? 1}::float8 * interval '1 second'
    FROM generate_series(0, ${games.count - 1}::int) AS gi CROSS JOIN generate_series(0, ${perGame - 1}::int) AS k`);
  // The first `winners` entries of each game (k order: created k steps after the game) won its
  // reward, which is the generated base + (game % 10) × step.
  if (winners > 0)
    await db.execute(sql`
      INSERT INTO game_winners (game_id, entry_id, user_id, prize, created_at)
      SELECT game_id, id, user_id, reward, created_at FROM (
        SELECT e.game_id, e.id, e.user_id, g.reward, e.created_at,
          row_number() OVER (PARTITION BY e.game_id ORDER BY e.created_at, e.id) AS k
        FROM game_entries e JOIN games g ON g.id = e.game_id
        WHERE g.title LIKE ${`Bench ${games.prefix} game %`}) ranked
      WHERE k <= ${winners}::int ORDER BY game_id, id`);
  await db.execute(sql`
    UPDATE games g SET player_count = c.n
    FROM (SELECT game_id, count(*)::int AS n FROM game_entries GROUP BY game_id) c
    WHERE c.game_id = g.id AND g.title LIKE ${`Bench ${games.prefix} game %`}`);
}

/**
 * Posts what the generated history implies, as the real flows would have: entry fees paid
 * (wallet → revenue, after funding the wallet from a test clearing account) and prizes won
 * (expense → wallet) through ledger_post, which moves the wallets, then players' stats. One ledger transaction per kind,
 * or with `feePerEntry` one per entry fee, as plays post them.
 */
async function settleHistory(
  db: Executor,
  gamePrefix: string,
  options: { feePerEntry?: boolean } = {},
): Promise<void> {
  const ofDataset = sql`e.game_id IN (SELECT id FROM games WHERE title LIKE ${`Bench ${gamePrefix} game %`})`;
  const postSums = async (
    kind: LedgerKind,
    perUser: ReturnType<typeof sql>,
    account: LedgerAccount,
  ) => {
    await db.execute(sql`
      WITH sums AS (SELECT e.user_id, (${perUser})::bigint AS amount FROM game_entries e
        LEFT JOIN game_winners w ON w.game_id = e.game_id AND w.entry_id = e.id
        WHERE ${ofDataset} GROUP BY e.user_id)
      SELECT ledger_post(${kind}::ledger_kind, ${`bench:${gamePrefix}:${kind}`}, ${`Generated ${kind} history`},
        array_append(array_agg('wallet'::ledger_account), ${account}::ledger_account),
        array_append(array_agg(user_id ORDER BY user_id), NULL::uuid),
        array_append(array_agg(amount ORDER BY user_id), -sum(amount)::bigint))
      FROM sums WHERE amount <> 0 HAVING count(*) > 0`);
  };
  await postSums('test_topup', sql`sum(e.amount_paid)`, ACCOUNTS.paymentClearing('test'));
  if (options.feePerEntry)
    await db.execute(sql`
      SELECT count(ledger_post('entry_fee', 'entry:' || e.id, 'Entry fee for "' || g.title || '"',
        ARRAY['wallet', ${ACCOUNTS.entryFees}]::ledger_account[], ARRAY[e.user_id, NULL]::uuid[],
        ARRAY[-e.amount_paid, e.amount_paid], e.created_at))
      FROM game_entries e JOIN games g ON g.id = e.game_id WHERE ${ofDataset} AND e.amount_paid > 0`);
  else await postSums('entry_fee', sql`-sum(e.amount_paid)`, ACCOUNTS.entryFees);
  await postSums('prize', sql`coalesce(sum(w.prize), 0)`, ACCOUNTS.prizeExpense);
  const points = sql.raw('(s.played * 10 + s.won_games * 50)');
  await db.execute(sql`
    UPDATE users u SET
      total_games_played = u.total_games_played + s.played,
      total_games_won = u.total_games_won + s.won_games,
      total_winning_amount = u.total_winning_amount + s.prizes,
      points = u.points + ${points},
      level = CASE WHEN u.points + ${points} < 100 THEN 1 WHEN u.points + ${points} < 500 THEN 2
        WHEN u.points + ${points} < 2000 THEN 3 WHEN u.points + ${points} < 10000 THEN 4 ELSE 5 END
    FROM (
      SELECT e.user_id, count(*)::int AS played, count(w.entry_id)::int AS won_games,
        coalesce(sum(w.prize), 0)::bigint AS prizes
      FROM game_entries e LEFT JOIN game_winners w ON w.game_id = e.game_id AND w.entry_id = e.id
      WHERE ${ofDataset} AND ${drawnEntrySql('e')} GROUP BY e.user_id
    ) s WHERE s.user_id = u.id`);
}

/**
 * The leaderboard case: `entries` drawn entries (100 per completed game, 20 winners each) over
 * `users` players, created evenly over the last `days` days. Half of the entries come from the
 * most active tenth of the players; 1 player in 100 is VIP.
 */
export async function generateLeaderboardDataset(
  db: Executor,
  options: { users: number; entries: number; days: number; now?: Date; prefix?: string },
): Promise<{ games: number }> {
  const prefix = options.prefix ?? 'lb';
  const perGame = 100;
  const games: GameSpec = {
    prefix,
    count: Math.ceil(options.entries / perGame),
    status: 'COMPLETED',
    entryFeeKobo: 10_000n,
    rewardKobo: 30_000n,
    rewardStepKobo: 5_000n,
    maximumPlayers: perGame,
    spreadDays: options.days,
    now: options.now,
  };
  await generateUsers(db, { prefix, count: options.users, vipEvery: 100, now: options.now });
  await generateGames(db, games);
  await generateEntries(db, {
    games,
    userPrefix: prefix,
    users: options.users,
    perGame,
    drawn: true,
    winnersPerGame: 20,
    regulars: Math.floor(options.users / 10),
  });
  await settleHistory(db, prefix);
  await db.execute(sql`ANALYZE`);
  return { games: games.count };
}

/** The draw case: one CLOSED, full, free game with `entries` entries by as many players. */
export async function generateDrawDataset(
  db: Executor,
  options: { entries: number; rewardKobo?: bigint; now?: Date; prefix?: string },
): Promise<{ gameId: string }> {
  const prefix = options.prefix ?? 'dr';
  const games: GameSpec = {
    prefix,
    count: 1,
    status: 'CLOSED',
    entryFeeKobo: 0n,
    rewardKobo: options.rewardKobo ?? 50_000n,
    maximumPlayers: options.entries,
    now: options.now,
  };
  await generateUsers(db, { prefix, count: options.entries, now: options.now });
  await generateGames(db, games);
  await generateEntries(db, {
    games,
    userPrefix: prefix,
    users: options.entries,
    perGame: options.entries,
    drawn: false,
    secondsApart: 0.001,
  });
  await db.execute(sql`ANALYZE`);
  return { gameId: benchGameId(prefix, 0) };
}

/**
 * The read-path case: `games` ONGOING free games with 0–99 recent entries each (by `users`
 * players, over the last 36 hours), so TRENDING has real counting to do.
 */
export async function generateReadDataset(
  db: Executor,
  options: { games: number; users: number; now?: Date; prefix?: string },
): Promise<void> {
  const prefix = options.prefix ?? 'rd';
  const now = options.now ?? new Date();
  await generateUsers(db, { prefix, count: options.users, now });
  await generateGames(db, {
    prefix,
    count: options.games,
    status: 'ONGOING',
    entryFeeKobo: 0n,
    rewardKobo: 50_000n,
    rewardStepKobo: 10_000n,
    maximumPlayers: 1000,
    spreadDays: 3,
    now,
  });
  // Game i gets (i × 37) mod 100 entries, k minutes apart, the newest within the last hour.
  await db.execute(sql`
    INSERT INTO game_entries (game_id, user_id, answer, amount_paid, created_at)
    SELECT ${gameIdSql(prefix, sql`gi`)},
      ${userIdSql(prefix, sql`(gi::bigint * 7919 + k::bigint * 4729) % ${options.users}::bigint`)},
      'Pounded yam and egusi', 0,
      ${now.toISOString()}::timestamptz - (k * 21 + gi % 60) * interval '1 minute'
    FROM generate_series(0, ${options.games - 1}::int) AS gi
    CROSS JOIN LATERAL generate_series(0, (gi * 37) % 100 - 1) AS k`);
  await db.execute(sql`
    UPDATE games g SET player_count = c.n
    FROM (SELECT game_id, count(*)::int AS n FROM game_entries GROUP BY game_id) c
    WHERE c.game_id = g.id`);
  await db.execute(sql`ANALYZE`);
}

/**
 * The write-path case: `players` players whose wallets are funded with `fundKobo` each through
 * one balanced ledger posting, and `games` ONGOING paid games; every `smallEvery`-th game has
 * only `smallCapacity` places, so it fills, closes and queues its draw during the run.
 */
const HISTORY_PER_GAME = 50;

export async function generateWriteDataset(
  db: Database,
  options: {
    players: number;
    games: number;
    entryFeeKobo: bigint;
    fundKobo: bigint;
    largeCapacity: number;
    smallCapacity: number;
    smallEvery: number;
    /** Completed games of HISTORY_PER_GAME entries each, played by these players before. */
    historyGames: number;
    prefix?: string;
  },
): Promise<void> {
  const prefix = options.prefix ?? 'wr';
  await generateUsers(db, { prefix, count: options.players });
  const spec: GameSpec = {
    prefix,
    count: options.games,
    status: 'ONGOING',
    entryFeeKobo: options.entryFeeKobo,
    rewardKobo: options.entryFeeKobo * 4n,
    maximumPlayers: options.largeCapacity,
  };
  await generateGames(db, spec);
  // The players' earlier games, each entry fee its own ledger transaction as plays post them:
  // the tables, indexes and planner statistics of a service that has been running, not of empty
  // tables, whose plans (a sequential scan of a table thought empty, cached by every connection)
  // no live database keeps once autovacuum has analysed it.
  const history: GameSpec = {
    prefix: `${prefix}h`,
    count: options.historyGames,
    status: 'COMPLETED',
    entryFeeKobo: options.entryFeeKobo,
    rewardKobo: options.entryFeeKobo * 4n,
    maximumPlayers: HISTORY_PER_GAME,
    spreadDays: 60,
    now: new Date(Date.now() - 2 * DAY_MS),
  };
  await generateGames(db, history);
  await generateEntries(db, {
    games: history,
    userPrefix: prefix,
    users: options.players,
    perGame: HISTORY_PER_GAME,
    drawn: true,
  });
  await settleHistory(db, history.prefix, { feePerEntry: true });
  await db.execute(sql`
    UPDATE games SET maximum_players = ${options.smallCapacity}::int
    WHERE title LIKE ${`Bench ${prefix} game %`}
      AND substring(title from ${`Bench ${prefix} game (\\d+)`})::int % ${options.smallEvery}::int = 0`);
  await db.transaction((tx) =>
    post(tx, {
      kind: 'test_topup',
      reference: `bench:${prefix}:funding`,
      description: 'Bench wallets',
      lines: [
        ...Array.from({ length: options.players }, (_, index) => ({
          account: ACCOUNTS.wallet,
          userId: benchUserId(prefix, index),
          amount: options.fundKobo,
        })),
        {
          account: ACCOUNTS.paymentClearing('test'),
          amount: -options.fundKobo * BigInt(options.players),
        },
      ],
    }),
  );
  await db.execute(sql`ANALYZE`);
}

/** Games of a dataset that sold more places than they have, or whose count disagrees. */
export async function oversoldGames(
  db: Executor,
): Promise<Array<{ id: string; maximum: number; count: number; entries: number }>> {
  return rowsOf(
    db,
    sql`SELECT g.id, g.maximum_players AS maximum, g.player_count AS count, count(e.id)::int AS entries
      FROM games g LEFT JOIN game_entries e ON e.game_id = g.id
      GROUP BY g.id HAVING g.player_count > g.maximum_players OR g.player_count <> count(e.id)`,
  );
}
