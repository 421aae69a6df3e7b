import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { GameType } from '../../../shared/constants.ts';
import { gameSchema } from '../../../shared/schemas/games.ts';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { MemoryCache } from '../../lib/memory-cache.ts';
import { toApiGame } from './serialize.ts';
import { listGameRows, playedIds } from './service.ts';

/**
 * How old a cached list may be. Committed changes to games and entries replace it at once on
 * every instance (cluster events); this bounds how long a change by time alone (TRENDING's
 * 24-hour window) or one whose notification was lost goes unseen.
 */
export const GAME_LIST_TTL_MS = 1_000;
/** A list this old is read again while it is still served (see cachedResponse). */
export const REFRESH_AHEAD_MS = (GAME_LIST_TTL_MS * 3) / 4;
/** How long what we learnt of a player's entries is trusted, should a notification be lost. */
export const PLAYED_TTL_MS = 30_000;
const CACHED_PLAYERS = 10_000;
/** Bodies kept per list, one per distinct set of played games among it (most players: none). */
const CACHED_BODIES = 64;

/** A list's whole answer for one set of played marks, ready to write as it is. */
export interface PreparedList {
  /** `{"data":{"games":[…]}}` as UTF-8 JSON. */
  body: Buffer;
  /**
   * A weak validator of the body's bytes, the same on every instance for the same list and
   * marks, so a player's revalidation is answered 304 whichever instance the balancer picks.
   * Weak because the gzip and the plain answer share it.
   */
  etag: string;
}

interface CachedList {
  version: number;
  computedAtMs: number;
  gameIds: string[];
  /** Each game's API fields as read, so a refresh that finds nothing changed keeps the list. */
  fingerprints: string[];
  /** Each game's JSON as a player who has not played it sees it, and as one who has. */
  json: Array<{ unplayed: string; played: string }>;
  /** Whole answers by the positions of the games played ("" for none). */
  bodies: Map<string, PreparedList>;
}

interface PlayerEntries {
  /** Games the player is known to have entered. */
  played: Set<string>;
  /** Games whose answer (played or not) is known. */
  checked: Set<string>;
  /**
   * The answer last built for this player and the list it was built from, until either
   * changes: a repeat read costs a lookup instead of a pass over the list's games.
   */
  served?: { list: CachedList; prepared: PreparedList };
}

function isFresh(computedAtMs: number, nowMs: number, ttlMs: number): boolean {
  // Either direction: tests move the app clock backwards as well as forwards.
  return Math.abs(nowMs - computedAtMs) < ttlMs;
}

/**
 * The game lists, which every player reads on every visit, kept in memory: one database query
 * per list per change (or per GAME_LIST_TTL_MS) instead of one per request, however many players
 * ask at once, and the response built from pre-serialized games.
 */
export class GameListCache {
  private version = 0;
  private readonly lists = new Map<GameType, CachedList>();
  private readonly loading = new Map<GameType, { version: number; list: Promise<CachedList> }>();
  private readonly players = new MemoryCache<string, PlayerEntries>(CACHED_PLAYERS);

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** After any committed change to games that can show in a list. */
  invalidate(): void {
    this.version += 1;
  }

  /** Every player's entries are read again (a bulk insert, or notifications were missed). */
  forgetPlayers(): void {
    this.players.clear();
    this.invalidate();
  }

  /** After a committed play: the player's own lists show it at once. */
  recordPlay(userId: string, gameId: string): void {
    const entries = this.players.get(userId, this.clock.now().getTime());
    if (entries) {
      entries.played.add(gameId);
      entries.checked.add(gameId);
      entries.served = undefined;
    }
    this.invalidate();
  }

  /** The answer of GET /game for one player. */
  async response(type: GameType, userId: string): Promise<PreparedList> {
    const cached = this.cachedResponse(type, userId);
    if (cached) return cached;
    const list = await this.list(type);
    return this.prepared(list, await this.playedAmong(userId, list.gameIds));
  }

  /** The same, without waiting, when everything it needs is in memory (nearly every request). */
  cachedResponse(type: GameType, userId: string): PreparedList | undefined {
    const nowMs = this.clock.now().getTime();
    const list = this.lists.get(type);
    if (
      !list ||
      list.version !== this.version ||
      !isFresh(list.computedAtMs, nowMs, GAME_LIST_TTL_MS)
    )
      return undefined;
    // Read again in the background once three quarters of its age are spent, so a list in
    // steady demand is never found expired and no reader waits for its query (a quarter of its
    // age is ample for one query, and no more reads than that). A failure leaves the list to
    // expire, and the next reader to meet the error.
    if (!isFresh(list.computedAtMs, nowMs, REFRESH_AHEAD_MS) && !this.loading.has(type))
      this.list(type, true).catch(() => {});
    const entries = this.players.get(userId, nowMs);
    if (!entries) return undefined;
    if (entries.served?.list === list) return entries.served.prepared;
    if (!list.gameIds.every((id) => entries.checked.has(id))) return undefined;
    const prepared = this.prepared(list, entries.played);
    entries.served = { list, prepared };
    return prepared;
  }

  private prepared(list: CachedList, played: ReadonlySet<string>): PreparedList {
    const positions: number[] = [];
    if (played.size > 0)
      list.gameIds.forEach((id, index) => {
        if (played.has(id)) positions.push(index);
      });
    const key = positions.join(',');
    const cached = list.bodies.get(key);
    if (cached) return cached;
    const games = list.json.map((game, index) =>
      positions.includes(index) ? game.played : game.unplayed,
    );
    const body = Buffer.from(`{"data":{"games":[${games.join(',')}]}}`);
    const prepared = {
      body,
      etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    };
    if (list.bodies.size < CACHED_BODIES) list.bodies.set(key, prepared);
    return prepared;
  }

  private list(type: GameType, ahead = false): Promise<CachedList> {
    const now = this.clock.now();
    const cached = this.lists.get(type);
    if (
      !ahead &&
      cached &&
      cached.version === this.version &&
      isFresh(cached.computedAtMs, now.getTime(), GAME_LIST_TTL_MS)
    )
      return Promise.resolve(cached);
    // Requests arriving while the list loads share that one query.
    const inFlight = this.loading.get(type);
    if (inFlight && inFlight.version === this.version) return inFlight.list;

    const version = this.version;
    const list = listGameRows(this.db, type, now)
      .then((rows): CachedList => {
        const fingerprints = rows.map((row) => JSON.stringify(toApiGame(row, false)));
        // A refresh by age alone mostly finds the same games: the list, its prepared answers
        // (their gzip and tags) and each player's last answer are kept rather than rebuilt.
        if (
          cached &&
          version === this.version &&
          cached.version === version &&
          fingerprints.length === cached.fingerprints.length &&
          fingerprints.every((fingerprint, index) => fingerprint === cached.fingerprints[index])
        ) {
          cached.computedAtMs = now.getTime();
          return cached;
        }
        const built = {
          version,
          computedAtMs: now.getTime(),
          gameIds: rows.map((row) => row.id),
          fingerprints,
          json: rows.map((row) => ({
            unplayed: JSON.stringify(gameSchema.parse(toApiGame(row, false))),
            played: JSON.stringify(gameSchema.parse(toApiGame(row, true))),
          })),
          bodies: new Map(),
        };
        // A change committed while the query ran makes its answer stale: serve it once, keep it not.
        if (version === this.version) this.lists.set(type, built);
        return built;
      })
      .finally(() => {
        if (this.loading.get(type)?.list === list) this.loading.delete(type);
      });
    this.loading.set(type, { version, list });
    return list;
  }

  private async playedAmong(userId: string, gameIds: readonly string[]): Promise<Set<string>> {
    const nowMs = this.clock.now().getTime();
    let entries = this.players.get(userId, nowMs);
    if (!entries) {
      entries = { played: new Set(), checked: new Set() };
      this.players.set(userId, entries, nowMs + PLAYED_TTL_MS);
    }
    const known = entries;
    const unchecked = gameIds.filter((id) => !known.checked.has(id));
    if (unchecked.length > 0) {
      // Only ever adds: a play recorded while this query ran stays recorded.
      for (const id of await playedIds(this.db, userId, unchecked)) known.played.add(id);
      for (const id of unchecked) known.checked.add(id);
      known.served = undefined;
    }
    return known.played;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    gameLists: GameListCache;
  }
}

export const gameListsPlugin = fp(
  async function gameLists(app: FastifyInstance) {
    const lists = new GameListCache(app.db, app.clock);
    app.clusterEvents.subscribe({
      onEvent(event) {
        if (event.kind === 'games') lists.invalidate();
        else if (event.kind === 'played') lists.recordPlay(event.userId, event.gameId);
        else if (event.kind === 'allPlayed') lists.forgetPlayers();
      },
      onResync: () => lists.forgetPlayers(),
    });
    app.decorate('gameLists', lists);
  },
  { name: 'game-lists', dependencies: ['database', 'cluster-events'] },
);
