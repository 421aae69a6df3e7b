import type { GameType, WithdrawalStatus } from '@shared/constants.ts';
import type { AdminGameFilters } from '@shared/schemas/admin.ts';
import type { AdminKycDocument } from '@shared/schemas/kyc.ts';

/**
 * Every TanStack Query key of the web app. A key is written where it is used, followed by
 * `satisfies AppQueryKey`, so it must be one listed here or a prefix of one (the root an
 * invalidation refreshes: ['games'] refreshes every ['games', …]). The list is a type, so it
 * costs no bytes: each screen carries only the strings of its own keys and no shared chunk,
 * which Home's budget has no room for.
 */
type Key =
  | ['games', 'list', GameType]
  | ['games', 'detail', string]
  /** The public draw proof: the game page and the console read the same entry. */
  | ['games', 'draw', string]
  | ['games', 'played']
  | ['notifications', number]
  | ['notification-preferences']
  | ['kyc']
  | ['banks']
  | ['bank-account-name', string, string]
  | ['payments', number]
  /** One top-up by its reference, as /PaymentStatus shows it. */
  | ['payments', 'status', string]
  /** The player's account number for top-ups by bank transfer. */
  | ['payments', 'bank-transfer-account']
  | ['withdrawals', number]
  /** The wallet's balance after each posting, asked again whenever the balance it ends at changes. */
  | ['wallet', 'balance-history', number]
  /** The public settings (fees, limits) the wallet reads and the console edits. */
  | ['settings']
  | ['plans']
  | ['leaderboard', object]
  | ['leaderboard', 'me', object]
  | ['responsible-play', 'overview' | 'statement' | 'reality-check']
  /** The console's keys sit under 'admin' so one invalidation can refresh it all. */
  | ['admin', 'report', { from: string; to: string }]
  | ['admin', 'games', 'list', AdminGameFilters]
  | ['admin', 'games', 'detail' | 'entries', string]
  | [
      'admin',
      'withdrawals',
      { status: WithdrawalStatus | undefined; held: boolean; reference: string; page: number },
    ]
  | ['admin', 'users', 'list', { q: string; page: number }]
  | ['admin', 'users', 'detail', string, 'responsible-play']
  | ['admin', 'users', 'kyc', string]
  | ['admin', 'kyc-documents', AdminKycDocument['status']]
  | ['admin', 'kyc-document-file', string]
  | [
      'admin',
      (
        | 'plans'
        | 'categories'
        | 'settings'
        | 'sandbox-payments'
        | 'held-payments'
        | 'support-tickets'
      ),
    ]
  | ['admin', 'audit', number]
  /** Outside the 'admin' root: refreshing the console must not re-ask for the code. */
  | ['second-factor'];

/** A key and every shorter prefix of it but the empty one. */
type WithPrefixes<K extends unknown[]> = K extends [...infer Head, unknown]
  ? K | (Head extends [] ? never : WithPrefixes<Head>)
  : never;

export type AppQueryKey = WithPrefixes<Key>;
