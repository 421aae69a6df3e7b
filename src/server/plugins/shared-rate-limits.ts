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

interface Window {
  windowStartMs: number;
  /** Hits counted here and not yet written. */
  unflushed: number;
  /** The cluster-wide count as of this instance's last write. */
  known: number;
}

/**
 * The per-client limit every API request pays: counted in memory (the hot path stays
 * synchronous) and added to the shared count in PostgreSQL in one statement every flush, which
 * answers with every instance's total and window. Another instance's hits are therefore seen
 * within one flush interval of this one's next write: a client spreading requests over N
 * instances gets at most N flush intervals' worth of extra requests, not N times its limit.
 */
export class SharedFixedWindow {
  private readonly windows = new Map<string, Window>();
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    readonly windowMs: number,
    private readonly keyPrefix: string,
    private readonly capacity = 100_000,
  ) {}

  /** Counts one hit; returns the cluster-wide count as far as known, and when the window ends. */
  hit(key: string, nowMs: number): { count: number; resetsAt: number } {
    let window = this.windows.get(key);
    if (!window || window.windowStartMs + this.windowMs <= nowMs) {
      window = { windowStartMs: nowMs, unflushed: 0, known: 0 };
      this.windows.delete(key);
      this.windows.set(key, window);
      if (this.windows.size > this.capacity) {
        const oldest = this.windows.keys().next();
        if (!oldest.done) this.windows.delete(oldest.value);
      }
    }
    window.unflushed += 1;
    return {
      count: window.known + window.unflushed,
      resetsAt: window.windowStartMs + this.windowMs,
    };
  }

  /** Writes what was counted since the last flush and learns the totals; one at a time. */
  flush(nowMs: number): Promise<void> {
    this.flushing ??= this.write(nowMs).finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async write(nowMs: number): Promise<void> {
    const batch: Array<{ key: string; count: number; window: Window }> = [];
    for (const [key, window] of this.windows) {
      if (window.windowStartMs + this.windowMs <= nowMs) {
        this.windows.delete(key);
        continue;
      }
      if (window.unflushed > 0)
        batch.push({ key: `${this.keyPrefix}${key}`, count: window.unflushed, window });
    }
    if (batch.length === 0) return;
    const totals = await addHits(
      this.db,
      batch.map(({ key, count }) => ({ key, count })),
      this.windowMs,
      nowMs,
    );
    for (const { key, count, window } of batch) {
      // Hits counted while the statement ran stay unflushed for the next one.
      window.unflushed -= count;
      const counted = totals.get(key);
      if (!counted) continue;
      window.known = counted.hits;
      window.windowStartMs = counted.windowStartMs;
    }
  }
}

/** Windows that ended more than an hour ago count for nothing: swept now and then. */
export async function sweepRateLimitHits(db: Executor, now: Date): Promise<void> {
  await db
    .delete(rateLimitHits)
    .where(lt(rateLimitHits.windowStart, new Date(now.getTime() - 3_600_000)));
}
