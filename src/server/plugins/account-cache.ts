import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import { MemoryCache } from '../lib/memory-cache.ts';

/**
 * How long this process trusts what it last read of an account (token version, role,
 * suspension, deletion) or of a session (revoked or not) without asking the database again,
 * should the notification of a change made elsewhere be lost. Changes made through this process
 * take effect at once (`tokens.forgetUser`, `tokens.revokeSession`), those made elsewhere when
 * their notification arrives (cluster events).
 */
export const ACCOUNT_STATE_TTL_MS = 2_000;
const CACHED_ACCOUNTS = 20_000;
const CACHED_SESSIONS = 20_000;

/** An account as this process last read it. */
export interface AccountState {
  role: (typeof users.$inferSelect)['role'];
  tokenVersion: number;
  suspended: boolean;
  deleted: boolean;
}

/** A session as this process last read it; `live` is false once revoked, expired or gone. */
export interface SessionState {
  userId: string | null;
  live: boolean;
  /** When the session last proved an operator's second factor (ms), or null. */
  secondFactorAt: number | null;
}

/** A session's row, as far as a token check needs it. */
export interface SessionRow {
  userId: string;
  expiresAt: Date;
  revokedAt: Date | null;
  secondFactorAt: Date | null;
}

/** Where the cache reads what it does not remember: the database (`accountSourceOf`). */
export interface AccountSource {
  /** The account, or null when there is no such user. */
  account(userId: string): Promise<AccountState | null>;
  session(sessionId: string): Promise<SessionRow | undefined>;
}

/** The two queries a token check may need, on `db`. */
export function accountSourceOf(db: Database): AccountSource {
  return {
    async account(userId) {
      const [row] = await db
        .select({
          role: users.role,
          tokenVersion: users.tokenVersion,
          suspendedAt: users.suspendedAt,
          deletedAt: users.deletedAt,
        })
        .from(users)
        .where(eq(users.id, userId))
        .limit(1);
      if (!row) return null;
      return {
        role: row.role,
        tokenVersion: row.tokenVersion,
        suspended: row.suspendedAt !== null,
        deleted: row.deletedAt !== null,
      };
    },
    async session(sessionId) {
      const [row] = await db
        .select({
          userId: sessions.userId,
          expiresAt: sessions.expiresAt,
          revokedAt: sessions.revokedAt,
          secondFactorAt: sessions.secondFactorAt,
        })
        .from(sessions)
        .where(eq(sessions.id, sessionId))
        .limit(1);
      return row;
    },
  };
}

/**
 * What the auth plugin remembers of accounts and sessions, and the one place that reads them.
 * A remembered state answers at once (`account`, `session`) until ACCOUNT_STATE_TTL_MS after it
 * was read; past that, the requests of one account that arrive together (a busy client, a page
 * that asks several things at once) share a single read of it rather than each starting the
 * same query. Times are the app clock's milliseconds.
 */
export class AccountCache {
  private readonly accounts = new MemoryCache<string, AccountState>(CACHED_ACCOUNTS);
  private readonly sessions = new MemoryCache<string, SessionState>(CACHED_SESSIONS);
  private readonly readingAccounts = new Map<string, Promise<AccountState | null>>();
  private readonly readingSessions = new Map<string, Promise<SessionState>>();
  /** Bumped by every forget: a read that raced a change is not remembered. */
  private generation = 0;

  constructor(private readonly source: AccountSource) {}

  /** The account as remembered, if it still is. */
  account(userId: string, nowMs: number): AccountState | undefined {
    return this.accounts.get(userId, nowMs);
  }

  /** The session as remembered, if it still is. */
  session(sessionId: string, nowMs: number): SessionState | undefined {
    return this.sessions.get(sessionId, nowMs);
  }

  /** The account as remembered, else the read of it under way, else a new read. */
  readAccount(userId: string, nowMs: number): Promise<AccountState | null> {
    const remembered = this.accounts.get(userId, nowMs);
    if (remembered) return Promise.resolve(remembered);
    return this.shareRead(this.readingAccounts, userId, async (stillCurrent) => {
      const account = await this.source.account(userId);
      if (account && stillCurrent())
        this.accounts.set(userId, account, nowMs + ACCOUNT_STATE_TTL_MS);
      return account;
    });
  }

  /** The session as remembered, else the read of it under way, else a new read. */
  readSession(sessionId: string, nowMs: number): Promise<SessionState> {
    const remembered = this.sessions.get(sessionId, nowMs);
    if (remembered) return Promise.resolve(remembered);
    return this.shareRead(this.readingSessions, sessionId, async (stillCurrent) => {
      const row = await this.source.session(sessionId);
      const live = row !== undefined && row.revokedAt === null && row.expiresAt.getTime() > nowMs;
      const state = {
        userId: row?.userId ?? null,
        live,
        secondFactorAt: row?.secondFactorAt?.getTime() ?? null,
      };
      // A live session is read again after the TTL (it may be revoked elsewhere) or at its
      // expiry; a dead one never comes back, but it is not worth keeping longer than a live one.
      const until = live
        ? Math.min(nowMs + ACCOUNT_STATE_TTL_MS, row.expiresAt.getTime())
        : nowMs + ACCOUNT_STATE_TTL_MS;
      if (stillCurrent()) this.sessions.set(sessionId, state, until);
      return state;
    });
  }

  /** A session just written (a token signed), known live until `until`. */
  rememberSession(sessionId: string, state: SessionState, until: number): void {
    this.sessions.set(sessionId, state, until);
  }

  /**
   * After a change to the user's account: its state and its sessions' are read again. Reads
   * already under way stay with those who asked before the change; later asks start new ones.
   */
  forgetUser(userId: string): void {
    this.forgetReadsUnderWay();
    this.accounts.delete(userId);
    this.sessions.deleteWhere((state) => state.userId === userId);
  }

  forgetSession(sessionId: string): void {
    this.forgetReadsUnderWay();
    this.sessions.delete(sessionId);
  }

  /** Everything: notifications may have been lost. */
  clear(): void {
    this.forgetReadsUnderWay();
    this.accounts.clear();
    this.sessions.clear();
  }

  /**
   * The read of `key` under way, else `read` started and shared until it settles; `read` is told
   * whether no change came since it started, so a read that raced one is not remembered.
   */
  private shareRead<T>(
    reading: Map<string, Promise<T>>,
    key: string,
    read: (stillCurrent: () => boolean) => Promise<T>,
  ): Promise<T> {
    const underWay = reading.get(key);
    if (underWay) return underWay;
    const generation = this.generation;
    const shared = read(() => generation === this.generation).finally(() => {
      if (reading.get(key) === shared) reading.delete(key);
    });
    reading.set(key, shared);
    return shared;
  }

  // Rare (a change to an account or a session), so every read under way rather than only those
  // it concerns: a session's read does not say whose the session is until it answers.
  private forgetReadsUnderWay(): void {
    this.generation += 1;
    this.readingAccounts.clear();
    this.readingSessions.clear();
  }
}
