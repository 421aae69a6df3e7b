import { formatNaira } from '@shared/money.ts';
import type { Withdrawal } from '@shared/schemas/wallet.ts';
import { useWithdrawals } from '../api/get-withdrawals.ts';
import { HistoryItem, HistorySection } from './HistorySection.tsx';
import { WithdrawalReceipt } from './WithdrawalReceipt.tsx';

function WithdrawalRow({ withdrawal }: { withdrawal: Withdrawal }) {
  return (
    <HistoryItem
      status={withdrawal.status}
      amount={withdrawal.amount}
      detail={`Fee ${formatNaira(withdrawal.fee)}`}
      createdAt={withdrawal.createdAt}
      receipt={<WithdrawalReceipt withdrawal={withdrawal} />}
    />
  );
}

/** docs/product.md#screens /WithdrawFunds: the player's withdrawals, newest first, page by page. */
export function WithdrawalHistory() {
  return (
    <HistorySection
      id="withdrawal-history"
      title="Withdrawal history"
      usePage={useWithdrawals}
      itemsOf={(data) => data.withdrawals}
      emptyTitle="No withdrawals yet"
      emptyText="When you cash out to your bank, each request shows here with its status."
      itemKey={(withdrawal) => withdrawal.id}
      renderItem={(withdrawal) => <WithdrawalRow withdrawal={withdrawal} />}
    />
  );
}
