import type { HoldReason } from '@shared/aml.ts';
import type { Pagination } from '@shared/schemas/common.ts';
import type { Game } from '@shared/schemas/games.ts';
import type { Plan } from '@shared/schemas/plans.ts';
import type { User } from '@shared/schemas/users.ts';

/** Response shapes of the admin API (src/server/modules/admin and withdrawals/routes.ts). */

export interface Envelope<T> {
  message?: string;
  data: T;
}

export interface MessageBody {
  message: string;
}

export interface AdminGamePage {
  games: Game[];
  pagination: Pagination;
}

export interface AdminGameFilters {
  status?: Game['status'];
  /** The server filters on TOURNAMENT only. */
  type?: 'TOURNAMENT';
  categoryID?: string;
  page: number;
}

export interface AdminEntry {
  entryId: number;
  userId: string;
  /** The public username, as the draw proof and the rest of the console name the player. */
  username: string;
  fullname: string;
  answer: string;
  amountPaid: number;
  isWinner: boolean | null;
  refunded: boolean;
  createdAt: string;
}

export interface ReportTotals {
  /** Live top-ups only (real money). */
  deposits: number;
  /** Top-ups through the payments sandbox (test money). */
  sandboxDeposits: number;
  entryFees: number;
  prizesPaid: number;
  refunds: number;
  planRevenue: number;
  withdrawalFees: number;
  withdrawalsPaid: number;
  adjustments: number;
  houseMargin: number;
}

export interface DailyPoint {
  day: string;
  deposits: number;
  sandboxDeposits: number;
  prizes: number;
  margin: number;
}

export interface LedgerInvariant {
  name: string;
  description: string;
  ok: boolean;
  offending: Record<string, unknown>[];
}

export interface LedgerCheck {
  ok: boolean;
  invariants: LedgerInvariant[];
}

export interface Report {
  from: string;
  to: string;
  totals: ReportTotals;
  daily: DailyPoint[];
  ledger: LedgerCheck;
  /** Withdrawals of the range held for review, per reason. */
  holds: (HoldReason & { withdrawals: number; amount: number; pending: number })[];
}

export const WITHDRAWAL_STATUSES = [
  'PENDING',
  'PROCESSING',
  'SUCCESSFUL',
  'FAILED',
  'REJECTED',
] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];

export interface AdminWithdrawal {
  id: string;
  /** The reference on the player's receipt (`wd-<id>`), also the payout transfer's. */
  reference: string;
  userId: string;
  username: string;
  amount: number;
  fee: number;
  status: WithdrawalStatus;
  bankName: string;
  accountNumber: string;
  accountName: string;
  reason: string | null;
  /** Anti-money-laundering rules that held it for review; empty when none did. */
  holdReasons: HoldReason[];
  createdAt: string;
}

export interface AdminWithdrawalPage {
  withdrawals: AdminWithdrawal[];
  pagination: Pagination;
}

export interface AdminUserRow {
  id: string;
  handle: string;
  /** The public username: the player's name everywhere in the console. */
  username: string;
  fullname: string;
  email: string;
  phoneNumber: string;
  role: string;
  accountBalance: number;
  suspended: boolean;
  createdAt: string;
}

export interface AdminUserPage {
  users: AdminUserRow[];
  pagination: Pagination;
}

export interface AdminUserDetail {
  user: User;
  suspendedReason: string | null;
  ledger: { id: number; kind: string; description: string; amount: number; createdAt: string }[];
  plays: {
    gameTitle: string;
    answer: string;
    amountPaid: number;
    isWinner: boolean | null;
    createdAt: string;
  }[];
  payments: {
    reference: string;
    method: string;
    /** live, or sandbox (test money) */
    mode: string;
    amount: number;
    status: string;
    createdAt: string;
  }[];
  withdrawals: {
    id: string;
    amount: number;
    fee: number;
    status: string;
    holdReasons: HoldReason[];
    createdAt: string;
  }[];
}

export interface AdminPlan extends Plan {
  isActive: boolean;
}

export interface AuditEntry {
  id: number;
  admin: string;
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  createdAt: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  pagination: Pagination;
}
