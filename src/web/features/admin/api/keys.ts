import type { WithdrawalStatus } from '@shared/constants.ts';
import type { AdminGameFilters } from '@shared/schemas/admin.ts';

/** Query keys of the console; everything sits under 'admin' so one invalidation can refresh it. */
export const adminKeys = {
  all: ['admin'] as const,
  report: (range: { from: string; to: string }) => ['admin', 'report', range] as const,
  games: ['admin', 'games'] as const,
  gameList: (filters: AdminGameFilters) => ['admin', 'games', 'list', filters] as const,
  game: (id: string) => ['admin', 'games', 'detail', id] as const,
  entries: (id: string) => ['admin', 'games', 'entries', id] as const,
  draw: (id: string) => ['admin', 'games', 'draw', id] as const,
  withdrawals: ['admin', 'withdrawals'] as const,
  withdrawalList: (status: WithdrawalStatus | undefined, held: boolean, page: number) =>
    ['admin', 'withdrawals', { status, held, page }] as const,
  users: ['admin', 'users'] as const,
  userList: (q: string, page: number) => ['admin', 'users', 'list', { q, page }] as const,
  user: (id: string) => ['admin', 'users', 'detail', id] as const,
  plans: ['admin', 'plans'] as const,
  categories: ['admin', 'categories'] as const,
  settings: ['admin', 'settings'] as const,
  audit: (page: number) => ['admin', 'audit', page] as const,
  sandboxPayments: ['admin', 'sandbox-payments'] as const,
  supportTickets: ['admin', 'support-tickets'] as const,
};
