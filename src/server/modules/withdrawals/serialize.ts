import { formatNaira, koboToNaira } from '../../../shared/money.ts';
import type { Withdrawal } from '../../../shared/schemas/wallet.ts';
import type { withdrawals } from '../../db/schema.ts';

/** A withdrawal as the API shows it, and the texts its amounts appear in. */

export const money = (kobo: bigint) => formatNaira(koboToNaira(kobo));

/** Transfers go out under this reference; providers refuse a repeated one, so a payout can't go twice. */
export const transferReference = (withdrawalId: string) => `wd-${withdrawalId}`;

export function toApi(row: typeof withdrawals.$inferSelect): Withdrawal {
  const status = {
    PENDING: 'pending',
    PROCESSING: 'processing',
    SUCCESSFUL: 'successful',
    FAILED: 'failed',
    REJECTED: 'failed',
  }[row.status];
  return {
    id: row.id,
    reference: transferReference(row.id),
    shortReference: row.shortReference,
    amount: koboToNaira(row.amount),
    fee: koboToNaira(row.fee),
    status,
    bankName: row.bankName,
    accountNumber: row.accountNumber,
    accountName: row.accountName,
    createdAt: row.createdAt.toISOString(),
  };
}
