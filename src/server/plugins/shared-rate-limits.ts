import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { rateLimitHits } from '../db/schema.ts';

/**
 * Rate limits shared by every instance, counted in PostgreSQL (table `rate_limit_hits`): per
 * key, a window opens at the key's first hit anywhere and lasts `windowMs`. PostgreSQL rather
 * than Redis: the counters are small, the database is already there and shared, and a
 * deployment needs no second stateful service to keep its limits honest.
 */

interface Counted {
  hits: number;
  windowStartMs: number;
}

/** Adds hits to each key's open window (opening a new one where it has ended); the totals. */
async function addHits(
  db: Executor,
  hits: ReadonlyArray<{ key: string; count: number }>,
  windowMs: number,
  nowMs: number,
): Promise<Map<string, Counted>> {
  const now = new Date(nowMs).toISOString();
  const result = await db.execute(sql`
    INSERT INTO rate_limit_hits AS r (key, window_start, hits)
    SELECT key, ${now}::timestamptz, count
    FROM jsonb_to_recordset(${JSON.stringify(hits)}::jsonb) AS h(key text, count int)
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN r.window_start + make_interval(secs => ${windowMs / 1000}) <= ${now}::timestamptz
        THEN excluded.hits ELSE r.hits + excluded.hits END,
      window_start = CASE WHEN r.window_start + make_interval(secs => ${windowMs / 1000}) <= ${now}::timestamptz
        THEN excluded.window_start ELSE r.window_start END
    RETURNING key, hits, (extract(epoch FROM window_start) * 1000)::bigint AS start`);
  const totals = new Map<string, Counted>();
  for (const row of (
    result as unknown as { rows: Array<{ key: string; hits: number; start: string | number }> }
  ).rows)
    totals.set(row.key, { hits: Number(row.hits), windowStartMs: Number(row.start) });
  return totals;
}

/**
 * A store for @fastify/rate-limit (the stricter limits of single routes: sign-in, codes, mail,
 * bank lookups): every hit is one upsert, exact across instances. Those routes are rare next to
 * the read path, so the round trip is affordable.
 */
export function postgresRateLimitStore(db: Database, scope: string): FastifyRateLimitStoreCtor {
  class PostgresRateLimitStore implements FastifyRateLimitStore {
    constructor(private readonly namespace = `${scope}route:`) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const nowMs = Date.now();
      const fullKey = `${this.namespace}${key}`;
      addHits(db, [{ key: fullKey, count: 1 }], timeWindow, nowMs).then((totals) => {
        const counted = totals.get(fullKey) ?? { hits: 1, windowStartMs: nowMs };
        callback(null, {
          current: counted.hits,
          ttl: Math.max(0, counted.windowStartMs + timeWindow - nowMs),
        });
      }, callback);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]) {
      // The route's own options carry `routeInfo` (empty for `app.createRateLimit` limiters,
      // whose keys are namespaced by their caller).
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      return new PostgresRateLimitStore(
        route?.url ? `${scope}route:${String(route.method)} ${String(route.url)}:` : this.namespace,
      );
    }
  }
  return PostgresRateLimitStore as unknown as FastifyRateLimitStoreCtor;
}

/** The answer to one request: whether it may pass, and what its headers say. */
export interface Verdict {
  allowed: boolean;
  /** Requests left in the client's budget as far as this instance knows (0 when refused). */
  remaining: number;
  resetsAt: number;
}

interface Budget {
  /** The window's start as PostgreSQL has it; until the first claim answers, the first hit's. */
  windowStartMs: number;
  /** Whether `windowStartMs` came from PostgreSQL, so unused units can be given back. */
  shared: boolean;
  /** Units claimed for this instance and not used yet: each admits one request. */
  leased: number;
  /** Units claimed by every instance together, as of this instance's last claim. */
  claimed: number;
  /** The last claim got nothing: every unit of the window is out, refuse until it ends. */
  exhausted: boolean;
  /** Requests waiting for the claim in flight, first come first served. */
  waiting: Array<(verdict: Verdict) => void>;
  claiming: boolean;
}

/** A claim takes this fraction of what is left of the budget (at least one unit). */
const CLAIM_SHARE = 10;
/** A failing database is logged at most this often, not once per claim. */
const FAILURE_LOG_MS = 10_000;

/**
 * The per-client limit every API request pays, exact across instances: a request passes only
 * with a unit of its client's budget this instance has claimed from PostgreSQL
 * (`pluckers_rate_limit_claim`, one locked row per client), so however a burst is spread no more
 * than the limit pass in a window. A claim takes a tenth of what is left, so far from the limit a
 * request costs a map lookup and the database is asked rarely; near it, once per request; once
 * the budget is gone, refusals cost nothing until the window ends. Requests arriving while a
 * claim is in flight wait for it rather than claiming again. What is exact is the upper bound:
 * units claimed by an instance the client stops reaching stay unused until the window ends (or
 * that instance shuts down and gives them back).
 */
export class SharedBudgets {
  private readonly budgets = new Map<string, Budget>();
  private lastFailureLogMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Database,
    readonly windowMs: number,
    readonly limit: number,
    private readonly keyPrefix: string,
    private readonly onDatabaseFailure: (error: unknown) => void,
    private readonly capacity = 100_000,
  ) {}

  /** One request of `key`: decided at once when units are at hand, else after a claim. */
  hit(key: string, nowMs: number): Verdict | Promise<Verdict> {
    let budget = this.budgets.get(key);
    if (
      budget &&
      !budget.claiming &&
      budget.waiting.length === 0 &&
      budget.windowStartMs + this.windowMs <= nowMs
    ) {
      this.budgets.delete(key);
      budget = undefined;
    }
    if (!budget) {
      budget = {
        windowStartMs: nowMs,
        shared: false,
        leased: 0,
        claimed: 0,
        exhausted: false,
        waiting: [],
        claiming: false,
      };
      this.budgets.set(key, budget);
      if (this.budgets.size > this.capacity) this.evictOne(key);
    }
    if (budget.leased > 0 && budget.waiting.length === 0) return this.admit(budget);
    if (budget.exhausted) return this.refuse(budget);
    const verdict = new Promise<Verdict>((resolve) => budget.waiting.push(resolve));
    if (!budget.claiming) void this.claim(key, budget);
    return verdict;
  }

  /**
   * One request of `key` when it can pass at once on a unit already at hand; otherwise nothing,
   * and nothing counted (the caller then takes the ordinary way, `hit`).
   */
  hitAtOnce(key: string, nowMs: number): Verdict | undefined {
    const budget = this.budgets.get(key);
    return budget && this.passesAtOnce(budget, nowMs) ? this.admit(budget) : undefined;
  }

  /** Whether `hitAtOnce` would pass a request of `key` now; counts nothing. */
  canPassAtOnce(key: string, nowMs: number): boolean {
    const budget = this.budgets.get(key);
    return budget !== undefined && this.passesAtOnce(budget, nowMs);
  }

  private passesAtOnce(budget: Budget, nowMs: number): boolean {
    return (
      budget.leased > 0 &&
      budget.waiting.length === 0 &&
      budget.windowStartMs + this.windowMs > nowMs
    );
  }

  /** Gives back the units this instance claimed and did not use (at shutdown). */
  async release(nowMs: number): Promise<void> {
    const units = [...this.budgets]
      .filter(
        ([, budget]) =>
          budget.shared && budget.leased > 0 && budget.windowStartMs + this.windowMs > nowMs,
      )
      .map(([key, budget]) => ({
        key: `${this.keyPrefix}${key}`,
        window_start_ms: budget.windowStartMs,
        units: budget.leased,
      }));
    for (const [, budget] of this.budgets) budget.leased = 0;
    if (units.length > 0)
      await this.db.execute(
        sql`SELECT pluckers_rate_limit_release(${JSON.stringify(units)}::jsonb)`,
      );
  }

  private admit(budget: Budget): Verdict {
    budget.leased -= 1;
    return {
      allowed: true,
      remaining: Math.max(0, this.limit - budget.claimed + budget.leased),
      resetsAt: budget.windowStartMs + this.windowMs,
    };
  }

  private refuse(budget: Budget): Verdict {
    return { allowed: false, remaining: 0, resetsAt: budget.windowStartMs + this.windowMs };
  }

  /** Claims units until every waiting request is answered or the budget is gone. */
  private async claim(key: string, budget: Budget): Promise<void> {
    budget.claiming = true;
    try {
      while (budget.waiting.length > 0) {
        const { granted, windowStartMs } = await this.claimOnce(key, budget);
        // A new window: units left from the old one count for nothing.
        if (windowStartMs !== budget.windowStartMs) budget.leased = 0;
        budget.windowStartMs = windowStartMs;
        budget.leased += granted;
        budget.exhausted = granted === 0;
        while (budget.waiting.length > 0 && budget.leased > 0)
          budget.waiting.shift()?.(this.admit(budget));
        if (budget.exhausted)
          for (const resolve of budget.waiting.splice(0)) resolve(this.refuse(budget));
      }
    } finally {
      budget.claiming = false;
    }
  }

  private async claimOnce(
    key: string,
    budget: Budget,
  ): Promise<{ granted: number; windowStartMs: number }> {
    try {
      const result = await this.db.execute(sql`
        SELECT granted, hits, (extract(epoch FROM window_start) * 1000)::bigint AS start
        FROM pluckers_rate_limit_claim(${`${this.keyPrefix}${key}`}, ${new Date(Date.now()).toISOString()}::timestamptz,
          ${this.windowMs}, ${this.limit}, ${CLAIM_SHARE})`);
      const [row] = (
        result as unknown as {
          rows: Array<{ granted: number; hits: number; start: string | number }>;
        }
      ).rows;
      if (!row) throw new Error('the rate-limit claim returned no row');
      budget.claimed = Number(row.hits);
      budget.shared = true;
      return { granted: Number(row.granted), windowStartMs: Number(row.start) };
    } catch (error) {
      // Without the database, this instance counts the client's budget on its own.
      const nowMs = Date.now();
      if (nowMs - this.lastFailureLogMs >= FAILURE_LOG_MS) {
        this.lastFailureLogMs = nowMs;
        this.onDatabaseFailure(error);
      }
      const left = Math.max(0, this.limit - budget.claimed);
      const granted = left === 0 ? 0 : Math.max(1, Math.floor(left / CLAIM_SHARE));
      budget.claimed += granted;
      return { granted, windowStartMs: budget.windowStartMs };
    }
  }

  /** Forgets the least recently started client with nothing in flight (bounded memory). */
  private evictOne(keep: string): void {
    for (const [key, budget] of this.budgets) {
      if (key === keep || budget.claiming) continue;
      this.budgets.delete(key);
      return;
    }
  }
}

/** Windows that ended more than an hour ago count for nothing: swept now and then. */
export async function sweepRateLimitHits(db: Executor, now: Date): Promise<void> {
  await db
    .delete(rateLimitHits)
    .where(lt(rateLimitHits.windowStart, new Date(now.getTime() - 3_600_000)));
}
