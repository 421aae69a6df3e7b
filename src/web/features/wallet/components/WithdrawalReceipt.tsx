import { formatNaira } from '@shared/money.ts';
import type { Withdrawal } from '@shared/schemas/wallet.ts';
import { DateTime } from '@web/components/ui/DateTime.tsx';
import { totalDebit } from '../lib/withdraw.ts';
import { type ReceiptFact, ReceiptFacts } from './ReceiptFacts.tsx';
import { StatusBadge } from './StatusBadge.tsx';

/** Where the money goes and what leaves the wallet: the confirmation's facts. */
export function withdrawalFacts(
  amount: number,
  fee: number,
  account: { bankName: string; accountName: string; accountNumber: string },
  /** Before the request it is still to be debited; on the receipt it has been. */
  totalLabel = 'Total to be debited',
): ReceiptFact[] {
  return [
    { label: 'Amount', value: formatNaira(amount) },
    { label: 'Transaction fee', value: formatNaira(fee) },
    { label: totalLabel, value: formatNaira(totalDebit(amount, fee)), emphasis: true },
    { label: 'Bank', value: account.bankName },
    { label: 'Account name', value: account.accountName },
    { label: 'Account number', value: account.accountNumber, code: true },
  ];
}

/**
 * A withdrawal as the server recorded it: its short reference (what the player reads out to
 * support; the provider's long one stays internal), the same facts as the confirmation, its status and when it was asked for.
 */
export function WithdrawalReceipt({ withdrawal }: { withdrawal: Withdrawal }) {
  return (
    <ReceiptFacts
      facts={[
        { label: 'Reference', value: withdrawal.shortReference, code: true },
        ...withdrawalFacts(withdrawal.amount, withdrawal.fee, withdrawal, 'Total debited'),
        { label: 'Status', value: <StatusBadge status={withdrawal.status} /> },
        {
          label: 'Requested',
          value: <DateTime value={withdrawal.createdAt} />,
        },
      ]}
    />
  );
}
