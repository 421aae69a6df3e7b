import { formatDate } from '@shared/date.ts';
import { formatNaira } from '@shared/money.ts';
import type { Withdrawal } from '@shared/schemas/wallet.ts';
import { useState } from 'react';
import { useWithdrawals } from '../api/get-withdrawals.ts';
import { statusLook } from '../lib/status.ts';
import { HistorySection, ReceiptDisclosure } from './HistorySection.tsx';
import { StatusBadge, StatusIcon } from './StatusBadge.tsx';
import { WithdrawalReceipt } from './WithdrawalReceipt.tsx';

function WithdrawalRow({ withdrawal }: { withdrawal: Withdrawal }) {
  const look = statusLook(withdrawal.status);
  return (
    <div>
      <div className="flex items-center gap-3">
        <span
          className={`hidden size-10 shrink-0 place-items-center rounded-full bg-white/5 min-[380px]:grid ${look.textClass}`}
        >
          <StatusIcon kind={look.icon} className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="font-bold">{formatNaira(withdrawal.amount)}</p>
          <p className="text-xs break-words text-muted">
            Fee {formatNaira(withdrawal.fee)} ·{' '}
            <time dateTime={withdrawal.createdAt}>{formatDate(withdrawal.createdAt)}</time>
          </p>
        </div>
        <StatusBadge status={withdrawal.status} />
      </div>
      <ReceiptDisclosure>
        <WithdrawalReceipt withdrawal={withdrawal} />
      </ReceiptDisclosure>
    </div>
  );
}

/** docs/product.md#screens /WithdrawFunds: the player's withdrawals, newest first, page by page. */
export function WithdrawalHistory() {
  const [page, setPage] = useState(1);
  const query = useWithdrawals(page);
  return (
    <HistorySection
      id="withdrawal-history"
      title="Withdrawal history"
      items={query.data?.withdrawals}
      pagination={query.data?.pagination}
      page={page}
      onPageChange={setPage}
      isPending={query.isPending}
      isFetching={query.isFetching && query.isPlaceholderData}
      error={query.error}
      onRetry={() => void query.refetch()}
      emptyTitle="No withdrawals yet"
      emptyText="When you cash out to your bank, each request shows here with its status."
      itemKey={(withdrawal) => withdrawal.id}
      renderItem={(withdrawal) => <WithdrawalRow withdrawal={withdrawal} />}
    />
  );
}
